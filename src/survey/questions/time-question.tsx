import { timeAnswerValue, timeInputValue, valueEntry } from "../../../core/survey-engine/answer-values.ts";
import type { QuestionProps } from "./question-props.ts";
import { TimeFields } from "./time-fields.tsx";

/**
 * Time entry: 24 hour by default, 12 hour when attributes.time_format says so. The answer is
 * today's date at that time with the local offset (spec 02 §5), or nothing until hour and minute
 * (and AM or PM) are chosen.
 */
export function TimeQuestion({ question, answer, onChange, readOnly, labelId, describedBy }: QuestionProps) {
  const initialTime = timeInputValue(answer[0]?.value);
  return (
    <TimeFields
      format={question.attributes.time_format ?? "24h"}
      initialTime={initialTime}
      labelledBy={labelId}
      describedBy={describedBy}
      readOnly={readOnly}
      onTimeChange={(time) => {
        const value = time === null ? null : timeAnswerValue(time, new Date());
        onChange(time === null || value === null ? [] : [valueEntry(value, time)]);
      }}
    />
  );
}

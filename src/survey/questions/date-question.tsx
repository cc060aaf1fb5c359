import { dateAnswerValue, dateInputValue, valueEntry } from "../../../core/survey-engine/answer-values.ts";
import { DateInput } from "../../widgets/date-picker/date-input.tsx";
import { isoOfDay } from "../../widgets/date-picker/date-text.ts";
import type { QuestionProps } from "./question-props.ts";

/**
 * A date, typed in the locale's short format (the spec's date input, not the device's picker):
 * stored as midnight Z, labelled with the ISO date. Enter submits like in a text field: when the
 * question is optional or a date is set.
 */
export function DateQuestion({
  question,
  answer,
  onChange,
  onSubmit,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const required = question.attributes.required;
  return (
    <DateInput
      className="date-question"
      inputClassName="date-question__input"
      defaultValue={dateInputValue(answer[0]?.value)}
      labelledBy={labelId}
      describedBy={describedBy}
      required={required}
      disabled={readOnly}
      onChange={(day) => {
        const date = day ? isoOfDay(day) : "";
        const value = dateAnswerValue(date);
        onChange(value === null ? [] : [valueEntry(value, date)]);
      }}
      onSubmit={(day) => {
        if (day || !required) onSubmit();
      }}
    />
  );
}

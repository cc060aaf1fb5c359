import { Trans } from "@lingui/react/macro";
import { useId, useState } from "react";
import {
  datetimeAnswerValue,
  datetimeInputValues,
  valueEntry,
} from "../../../core/survey-engine/answer-values.ts";
import { DateInput } from "../../widgets/date-picker/date-input.tsx";
import { isoOfDay } from "../../widgets/date-picker/date-text.ts";
import type { QuestionProps } from "./question-props.ts";
import { TimeFields } from "./time-fields.tsx";

/**
 * A date (the date input, in the locale's short format) and a time (hour, minute and, on a
 * 12-hour clock, AM or PM): both are needed, otherwise the answer is empty (SKIPPED, spec 02 §5). The
 * answer is that local time as an ISO string with seconds zero.
 */
export function DatetimeQuestion({
  question,
  answer,
  onChange,
  readOnly,
  labelId,
  describedBy,
}: QuestionProps) {
  const id = useId();
  const timeLabelId = `${id}-time-label`;
  const [initial] = useState(() => datetimeInputValues(answer[0]?.value));
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState<string | null>(initial.time || null);

  const update = (nextDate: string, nextTime: string | null) => {
    setDate(nextDate);
    setTime(nextTime);
    const value = nextTime === null ? null : datetimeAnswerValue(nextDate, nextTime);
    onChange(value === null ? [] : [valueEntry(value, `${nextDate} ${nextTime}`)]);
  };

  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="datetime-question">
      <DateInput
        className="datetime-question__part"
        inputClassName="date-question__input"
        labelClassName="datetime-question__part-label"
        label={<Trans id="question_datetime_date">Date</Trans>}
        defaultValue={initial.date}
        required={question.attributes.required}
        disabled={readOnly}
        onChange={(day) => update(day ? isoOfDay(day) : "", time)}
      />
      <div className="datetime-question__part">
        <span id={timeLabelId} className="datetime-question__part-label">
          <Trans id="question_datetime_time">Time</Trans>
        </span>
        <TimeFields
          format={question.attributes.time_format ?? "24h"}
          initialTime={initial.time}
          labelledBy={timeLabelId}
          readOnly={readOnly}
          onTimeChange={(next) => update(date, next)}
        />
      </div>
    </div>
  );
}

import { useState, type KeyboardEvent } from "react";
import { dateAnswerValue, dateInputValue, valueEntry } from "../../../core/survey-engine/answer-values.ts";
import type { QuestionProps } from "./question-props.ts";

/**
 * A date (native date input, so the device's own picker): stored as midnight Z. Enter submits
 * like in a text field: when the question is optional or a date is set.
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
  const [date, setDate] = useState(() => dateInputValue(answer[0]?.value));
  const required = question.attributes.required;

  const change = (next: string) => {
    setDate(next);
    const value = dateAnswerValue(next);
    onChange(value === null ? [] : [valueEntry(value, next)]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (!required || dateAnswerValue(date) !== null) onSubmit();
  };

  return (
    <input
      type="date"
      className="date-question__input"
      value={date}
      disabled={readOnly}
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      aria-required={required || undefined}
      onChange={(event) => change(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}

import { useLingui } from "@lingui/react/macro";
import { useId, type KeyboardEvent } from "react";
import { valueEntry } from "../../../core/survey-engine/answer-values.ts";
import { TEXT_MAX_CHARACTERS } from "../../../core/contracts/survey-definition.ts";
import { idList } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";

/** Remaining-character counts at which screen readers hear how much is left. */
const ANNOUNCE_REMAINING_AT = [20, 10] as const;

/** The threshold the remaining count has crossed: announced once, not on every keystroke. */
function remainingThreshold(remaining: number) {
  if (remaining <= 0) return 0;
  return ANNOUNCE_REMAINING_AT.findLast((threshold) => remaining <= threshold) ?? null;
}

/**
 * Free text (spec 02 §2, §4, §5): at most 140 characters with a live "n / 140" counter, which
 * the field names as its description (read on focus) while a polite live region speaks only when
 * 20 and 10 characters are left and when the limit is reached. Enter submits when the question
 * is optional or holds text (Shift+Enter starts a new line); an answer from the server is shown
 * and cannot be changed.
 */
export function TextQuestion({
  question,
  answer,
  onChange,
  onSubmit,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const { t } = useLingui();
  const counterId = useId();
  const first = answer[0]?.value;
  const text = typeof first === "string" ? first : "";
  const required = question.attributes.required;
  const count = text.length;
  const max = TEXT_MAX_CHARACTERS;
  const threshold = remainingThreshold(max - count);

  const change = (value: string) => {
    const limited = value.slice(0, max);
    onChange(limited.trim() === "" ? [] : [valueEntry(limited)]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!required || text.trim() !== "") onSubmit();
  };

  let announcement = "";
  if (threshold === 0) {
    announcement = t({ id: "question_text_limit_reached", message: `Character limit of ${max} reached.` });
  } else if (threshold !== null) {
    announcement = t({ id: "question_text_remaining", message: `${threshold} characters left.` });
  }

  return (
    <div className="text-question">
      <textarea
        className="text-question__input"
        rows={3}
        maxLength={max}
        value={text}
        disabled={readOnly}
        aria-labelledby={labelId}
        aria-describedby={idList(describedBy, counterId)}
        aria-required={required || undefined}
        onChange={(event) => change(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={counterId} className="text-question__counter">
        {t({ id: "question_text_counter", message: `${count} / ${max}` })}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}

import { useId } from "react";
import { choiceEntry, entryChoiceId, orderedChoices } from "../../../core/survey-engine/answer-values.ts";
import { classNames } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";

/** The 5-choice scale shows every label under its point (spec 02 §2). */
const LABELLED_POINTS_UP_TO = 5;

/**
 * Likert scale (5 or 7 choices): one row of points, a radiogroup that arrow keys move along.
 * Up to 5 points every label shows under its point; on a 7-point scale only the two ends show
 * theirs and the others stay readable to screen readers. On a phone the points stack.
 */
export function LikertQuestion({
  question,
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const name = useId();
  const selected = entryChoiceId(answer[0]);
  const choices = orderedChoices(question);
  const allLabelled = choices.length <= LABELLED_POINTS_UP_TO;

  return (
    <div
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      aria-required={question.attributes.required || undefined}
      className={classNames("likert", `likert--${choices.length}`)}
    >
      {choices.map(({ id, choice }, index) => {
        const checked = id === selected;
        const labelShown = allLabelled || index === 0 || index === choices.length - 1;
        return (
          <label key={id} className={classNames("likert__point", checked && "likert__point--selected")}>
            <input
              type="radio"
              className="likert__input"
              name={name}
              value={id}
              checked={checked}
              disabled={readOnly}
              onChange={() => {
                const entry = choiceEntry(question, id);
                if (entry && !readOnly) onChange([entry]);
              }}
            />
            <span className={labelShown ? "likert__label" : "likert__label visually-hidden"}>
              {choice.label}
            </span>
          </label>
        );
      })}
    </div>
  );
}

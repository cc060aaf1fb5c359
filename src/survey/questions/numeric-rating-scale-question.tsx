import { useId } from "react";
import { ratingScalePoints, valueEntry } from "../../../core/survey-engine/answer-values.ts";
import { classNames, idList } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";

/**
 * Numeric rating scale: a radiogroup of numbers from min to max (0 to 10 by default) drawn as a
 * row of buttons, with min_label and max_label under its two ends describing the group.
 */
export function NumericRatingScaleQuestion({
  question,
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const name = useId();
  const endsId = useId();
  const { min_label: minLabel, max_label: maxLabel } = question.attributes;
  const first = answer[0]?.value;
  const selected = typeof first === "number" ? first : typeof first === "string" ? Number(first) : undefined;
  const points = ratingScalePoints(question.attributes);
  const hasEnds = Boolean(minLabel || maxLabel);

  return (
    <div className="rating-scale">
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={idList(describedBy, hasEnds && endsId)}
        aria-required={question.attributes.required || undefined}
        className="rating-scale__points"
      >
        {points.map((point) => {
          const checked = point === selected;
          return (
            <label
              key={point}
              className={classNames("rating-scale__point", checked && "rating-scale__point--selected")}
            >
              <input
                type="radio"
                className="rating-scale__input"
                name={name}
                value={point}
                checked={checked}
                disabled={readOnly}
                onChange={() => {
                  if (!readOnly) onChange([valueEntry(point)]);
                }}
              />
              <span className="rating-scale__number">{point}</span>
            </label>
          );
        })}
      </div>
      {hasEnds ? (
        <p id={endsId} className="rating-scale__ends">
          <span className="rating-scale__end">
            <span className="visually-hidden">{points[0]} </span>
            {minLabel}
          </span>{" "}
          <span className="rating-scale__end rating-scale__end--max">
            <span className="visually-hidden">{points.at(-1)} </span>
            {maxLabel}
          </span>
        </p>
      ) : null}
    </div>
  );
}

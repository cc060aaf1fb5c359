import { useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { readNumberField, type NumberKind } from "../../../core/survey-engine/answer-values.ts";
import type { QuestionAttributes } from "../../../core/contracts/survey-definition.ts";
import { classNames, idList } from "./class-names.ts";

type NumberFieldProps = {
  kind: NumberKind;
  text: string;
  onTextChange: (text: string) => void;
  attributes: Pick<QuestionAttributes, "min" | "max" | "unit" | "inputWidth" | "required" | "decimals">;
  /** The input's id, for a <label htmlFor>. */
  id?: string | undefined;
  /** The id of the element naming the field when no <label> does. */
  labelledBy?: string | undefined;
  describedBy?: string | undefined;
  readOnly?: boolean | undefined;
};

/**
 * A number input: integers step 1, decimals step 0.1 (or 0.01... as `decimals` says), within min
 * and max, with the unit after it.
 * On leaving the field its text becomes the number stored (rounded). A number out of bounds
 * stores nothing and says why, politely, next to the field.
 */
export function NumberField({
  kind,
  text,
  onTextChange,
  attributes,
  id,
  labelledBy,
  describedBy,
  readOnly = false,
}: NumberFieldProps) {
  const { t } = useLingui();
  const unitId = useId();
  const problemId = useId();
  const reading = readNumberField(kind, text, attributes);
  const { min, max, unit, inputWidth } = attributes;

  let problem: string | null = null;
  if (reading.problem === "not_a_number") {
    problem = t({ id: "question_number_not_a_number", message: "Enter a number." });
  } else if (reading.problem === "below_min" || reading.problem === "above_max") {
    if (min !== undefined && max !== undefined) {
      problem = t({ id: "question_number_range", message: `Enter a number from ${min} to ${max}.` });
    } else if (min !== undefined) {
      problem = t({ id: "question_number_min", message: `Enter a number of at least ${min}.` });
    } else {
      problem = t({ id: "question_number_max", message: `Enter a number of at most ${max}.` });
    }
  }

  const normalise = () => {
    if (reading.value !== null && String(reading.value) !== text) onTextChange(String(reading.value));
  };

  return (
    <div className="number-field">
      <div className="number-field__row">
        <input
          id={id}
          className={classNames(
            "number-field__input",
            inputWidth !== undefined && "number-field__input--sized",
          )}
          style={inputWidth !== undefined ? { width: `calc(${inputWidth}ch + 56px)` } : undefined}
          type="number"
          inputMode={kind === "integer" ? "numeric" : "decimal"}
          step={kind === "integer" ? 1 : Number(`1e-${attributes.decimals ?? 1}`)}
          min={min}
          max={max}
          value={text}
          disabled={readOnly}
          aria-labelledby={labelledBy}
          aria-describedby={idList(describedBy, unit && unitId, problem && problemId)}
          aria-invalid={problem ? true : undefined}
          aria-required={attributes.required || undefined}
          onChange={(event) => onTextChange(event.target.value)}
          onBlur={normalise}
        />
        {unit ? (
          <span id={unitId} className="number-field__unit">
            {unit}
          </span>
        ) : null}
      </div>
      <p id={problemId} className="field-error number-field__problem" aria-live="polite">
        {problem}
      </p>
    </div>
  );
}

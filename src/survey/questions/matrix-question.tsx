import { useId, type CSSProperties } from "react";
import {
  choiceEntry,
  entryChoiceId,
  matrixAnswerWidthPercent,
  orderedChoices,
  orderedSubQuestions,
} from "../../../core/survey-engine/answer-values.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { classNames } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";

/**
 * Matrix: rows are the sub-questions (questions_order), columns the choices (choices_order).
 * Laid out as a table whose answer columns take the width of spec 02 §5 (2 choices 30 % … 7
 * choices 80 %); each row is a radiogroup named by its row label, each radio by its column
 * (shown in the header on a tablet, next to the radio when rows stack on a phone). The answer
 * holds one entry per answered row (question = the row id), in row order.
 */
export function MatrixQuestion({
  question,
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const id = useId();
  const rows = orderedSubQuestions(question);
  const choices = orderedChoices(question);
  const chosen = new Map<string, string | undefined>(
    answer.map((entry) => [entry.question ?? "", entryChoiceId(entry)]),
  );
  const style = { "--matrix-answer-width": `${matrixAnswerWidthPercent(choices.length)}%` } as CSSProperties;

  const choose = (rowId: string, choiceId: string) => {
    if (readOnly) return;
    const next = new Map(chosen).set(rowId, choiceId);
    const entries: AnswerEntry[] = [];
    for (const row of rows) {
      const rowChoice = next.get(row.id);
      const entry = rowChoice === undefined ? null : choiceEntry(question, rowChoice);
      if (entry) entries.push({ ...entry, question: row.id });
    }
    onChange(entries);
  };

  return (
    <div
      role="group"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      className={classNames("matrix", `matrix--${choices.length}`)}
      style={style}
    >
      <div className="matrix__head" aria-hidden="true">
        <span className="matrix__corner" />
        <span className="matrix__columns">
          {choices.map(({ id: choiceId, choice }) => (
            <span key={choiceId} className="matrix__column">
              {choice.label}
            </span>
          ))}
        </span>
      </div>
      {rows.map((row, rowIndex) => {
        const rowLabelId = `${id}-row-${rowIndex}`;
        const rowChoice = chosen.get(row.id);
        return (
          <div
            key={row.id}
            role="radiogroup"
            aria-labelledby={rowLabelId}
            aria-required={row.attributes.required || question.attributes.required || undefined}
            className={classNames("matrix__row", rowChoice !== undefined && "matrix__row--answered")}
          >
            <span id={rowLabelId} className="matrix__row-label">
              {row.label}
            </span>
            <span className="matrix__cells">
              {choices.map(({ id: choiceId, choice }) => {
                const checked = rowChoice === choiceId;
                return (
                  <label
                    key={choiceId}
                    className={classNames("matrix__cell", checked && "matrix__cell--selected")}
                  >
                    <input
                      type="radio"
                      className="matrix__input"
                      name={`${id}-${rowIndex}`}
                      value={choiceId}
                      checked={checked}
                      disabled={readOnly}
                      onChange={() => choose(row.id, choiceId)}
                    />
                    <span className="matrix__cell-label">{choice.label}</span>
                  </label>
                );
              })}
            </span>
          </div>
        );
      })}
    </div>
  );
}

import { choiceEntry, entryChoiceId, orderedChoices } from "../../../core/survey-engine/answer-values.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { classNames } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";

/** Multiple choice: checkbox cards; the answer lists the checked choices in choices_order. */
export function SelectMultipleQuestion({
  question,
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const checkedIds = new Set(answer.map(entryChoiceId));
  const choices = orderedChoices(question);

  const toggle = (choiceId: string, checked: boolean) => {
    if (readOnly) return;
    const next = new Set(checkedIds);
    if (checked) next.add(choiceId);
    else next.delete(choiceId);
    const entries: AnswerEntry[] = [];
    for (const { id } of choices) {
      const entry = next.has(id) ? choiceEntry(question, id) : null;
      if (entry) entries.push(entry);
    }
    onChange(entries);
  };

  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="choice-list">
      {choices.map(({ id, choice }) => {
        const checked = checkedIds.has(id);
        return (
          <label
            key={id}
            className={classNames(
              "choice",
              "choice--multiple",
              checked && "choice--selected",
              choice.imageSrc && "choice--with-image",
              readOnly && "choice--read-only",
            )}
          >
            <input
              type="checkbox"
              className="choice__input"
              value={id}
              checked={checked}
              disabled={readOnly}
              onChange={(event) => toggle(id, event.target.checked)}
            />
            {choice.imageSrc ? <img className="choice__image" src={choice.imageSrc} alt="" /> : null}
            <span className="choice__label">{choice.label}</span>
          </label>
        );
      })}
    </div>
  );
}

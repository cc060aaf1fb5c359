import { useId, useRef, type ChangeEvent, type KeyboardEvent } from "react";
import { choiceEntry, entryChoiceId, orderedChoices } from "../../../core/survey-engine/answer-values.ts";
import { classNames } from "./class-names.ts";
import type { QuestionProps } from "./question-props.ts";
import { useChoiceHighlight } from "./use-choice-highlight.ts";

const ARROW_KEY = /^Arrow/;

/**
 * Single choice (spec 02 §2 and §4): large choice cards holding native radios (arrow keys move
 * the choice), optionally with an image. Selecting highlights the choice for 300 ms and the one
 * it replaces for 200 ms; choosing the selected choice again clears the answer. Inside a sibling
 * group a selection submits at once, except when it came from the arrow keys: a keyboard user
 * moving through the choices would otherwise be carried away by the first arrow press.
 */
export function SelectOneQuestion({
  question,
  answer,
  onChange,
  onSubmit,
  readOnly = false,
  inSiblingGroup = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const name = useId();
  const selected = entryChoiceId(answer[0]);
  const { highlights, highlight } = useChoiceHighlight();
  const lastKeyWasArrow = useRef(false);

  const select = (choiceId: string, event: ChangeEvent<HTMLInputElement>) => {
    const entry = choiceEntry(question, choiceId);
    if (readOnly || !entry || choiceId === selected) return;
    if (selected !== undefined) highlight(selected, "deselecting");
    highlight(choiceId, "selecting");
    onChange([entry]);
    // A radio's change comes from a click event; one made by a key has no click count (detail 0).
    const native = event.nativeEvent;
    const byKeyboard = native instanceof MouseEvent && native.detail === 0;
    if (inSiblingGroup && !(byKeyboard && lastKeyWasArrow.current)) onSubmit();
  };

  const deselect = (choiceId: string) => {
    if (readOnly || choiceId !== selected) return;
    highlight(choiceId, "deselecting");
    onChange([]);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    lastKeyWasArrow.current = ARROW_KEY.test(event.key);
  };

  return (
    <div
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      aria-required={question.attributes.required || undefined}
      className="choice-list"
    >
      {orderedChoices(question).map(({ id, choice }) => {
        const checked = id === selected;
        const state = highlights[id];
        return (
          <label
            key={id}
            className={classNames(
              "choice",
              checked && "choice--selected",
              state && `choice--${state}`,
              choice.imageSrc && "choice--with-image",
              readOnly && "choice--read-only",
            )}
          >
            <input
              type="radio"
              className="choice__input"
              name={name}
              value={id}
              checked={checked}
              disabled={readOnly}
              onChange={(event) => select(id, event)}
              onKeyDown={onKeyDown}
              onKeyUp={() => {
                lastKeyWasArrow.current = false;
              }}
              // A click on the selected choice fires no change event: it clears the answer.
              onClick={() => deselect(id)}
            />
            {choice.imageSrc ? <img className="choice__image" src={choice.imageSrc} alt="" /> : null}
            <span className="choice__label">{choice.label}</span>
          </label>
        );
      })}
    </div>
  );
}

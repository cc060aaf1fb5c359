import { useId, useState } from "react";
import {
  numberInputValue,
  orderedSubQuestions,
  readNumberField,
  valueEntry,
} from "../../../core/survey-engine/answer-values.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { TEXT_MAX_CHARACTERS, type SubQuestion } from "../../../core/contracts/survey-definition.ts";
import { NumberField } from "./number-field.tsx";
import type { QuestionProps } from "./question-props.ts";

/** The entry a field's text gives, or null while it gives none. */
function fieldEntry(field: SubQuestion, text: string): AnswerEntry | null {
  const type = field.type ?? "text";
  if (type === "text") {
    return text.trim() === "" ? null : { ...valueEntry(text), question: field.id };
  }
  const { value } = readNumberField(type, text, field.attributes);
  return value === null ? null : { ...valueEntry(value), question: field.id };
}

/**
 * Multiple field (spec 02 §2 and §5): labelled text, integer and decimal fields, numbers within
 * their own min and max. The answer holds one entry per field (question = the field id), and
 * only once every field has a value: until then it is empty.
 */
export function MultipleFieldQuestion({
  question,
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const id = useId();
  const fields = orderedSubQuestions(question);
  const [texts, setTexts] = useState<Readonly<Record<string, string>>>(() => {
    const initial: Record<string, string> = {};
    for (const entry of answer) {
      if (entry.question === undefined) continue;
      initial[entry.question] = typeof entry.value === "string" ? entry.value : numberInputValue(entry.value);
    }
    return initial;
  });

  const change = (fieldId: string, text: string) => {
    const next = { ...texts, [fieldId]: text };
    setTexts(next);
    const entries: AnswerEntry[] = [];
    for (const field of fields) {
      const entry = fieldEntry(field, next[field.id] ?? "");
      if (!entry) {
        onChange([]);
        return;
      }
      entries.push(entry);
    }
    onChange(entries);
  };

  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="multiple-field">
      {fields.map((field, index) => {
        const inputId = `${id}-${index}`;
        const text = texts[field.id] ?? "";
        const type = field.type ?? "text";
        return (
          <div key={field.id} className="field multiple-field__field">
            <label htmlFor={inputId}>{field.label}</label>
            {type === "text" ? (
              <input
                id={inputId}
                type="text"
                className="multiple-field__text"
                maxLength={TEXT_MAX_CHARACTERS}
                value={text}
                disabled={readOnly}
                onChange={(event) => change(field.id, event.target.value.slice(0, TEXT_MAX_CHARACTERS))}
              />
            ) : (
              <NumberField
                id={inputId}
                kind={type}
                text={text}
                onTextChange={(next) => change(field.id, next)}
                attributes={field.attributes}
                readOnly={readOnly}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

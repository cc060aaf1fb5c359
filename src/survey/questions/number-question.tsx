import { useState } from "react";
import {
  numberInputValue,
  readNumberField,
  valueEntry,
  type NumberKind,
} from "../../../core/survey-engine/answer-values.ts";
import { NumberField } from "./number-field.tsx";
import type { QuestionProps } from "./question-props.ts";

/**
 * Integer and decimal questions. The field keeps what is typed ("2." on the way to "2.5"); the
 * answer holds the rounded number, or nothing while the text is not a number within bounds.
 */
export function NumberQuestion({
  question,
  answer,
  onChange,
  readOnly,
  labelId,
  describedBy,
  kind,
}: QuestionProps & { kind: NumberKind }) {
  const [text, setText] = useState(() => numberInputValue(answer[0]?.value));

  const change = (next: string) => {
    setText(next);
    const { value } = readNumberField(kind, next, question.attributes);
    onChange(value === null ? [] : [valueEntry(value)]);
  };

  return (
    <NumberField
      kind={kind}
      text={text}
      onTextChange={change}
      attributes={question.attributes}
      labelledBy={labelId}
      describedBy={describedBy}
      readOnly={readOnly}
    />
  );
}

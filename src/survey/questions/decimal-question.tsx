import { NumberQuestion } from "./number-question.tsx";
import type { QuestionProps } from "./question-props.ts";

/** A decimal number (spec 02 §5): step 0.1, rounded to one decimal (or its `decimals`), within min and max, with its unit. */
export function DecimalQuestion(props: QuestionProps) {
  return <NumberQuestion {...props} kind="decimal" />;
}

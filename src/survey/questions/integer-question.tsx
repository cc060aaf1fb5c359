import { NumberQuestion } from "./number-question.tsx";
import type { QuestionProps } from "./question-props.ts";

/** A whole number (spec 02 §5): what is typed is rounded, within min and max. */
export function IntegerQuestion(props: QuestionProps) {
  return <NumberQuestion {...props} kind="integer" />;
}

/**
 * Says why the step cannot move on: which required question still has no answer, or
 * which signature is not given yet. The footer's button is described by it, so a screen reader
 * hears the reason with the disabled button.
 */
import { Trans } from "@lingui/react/macro";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import "./survey-runner.css";

export function MissingAnswerHint({
  id,
  question,
  finishes,
  alone,
}: {
  id: string;
  question: Question;
  finishes: boolean;
  /** The only question of its step: "the question above" says which, in less of the footer. */
  alone: boolean;
}) {
  const label = question.label.trim();
  return (
    <p id={id} className="survey__missing">
      {question.type === "consent_signature" ? (
        finishes ? (
          <Trans id="survey_missing_signature_finish">Not signed yet: “{label}”. Sign above to finish.</Trans>
        ) : (
          <Trans id="survey_missing_signature">Not signed yet: “{label}”. Sign above to continue.</Trans>
        )
      ) : alone ? (
        <Trans id="survey_missing_answer_above">Answer the question above to continue.</Trans>
      ) : (
        <Trans id="survey_missing_answer">Needs an answer: “{label}”.</Trans>
      )}
    </p>
  );
}

/**
 * The device refused to store the draft (a full or private storage): the clinician is
 * told at once, the answers stay on screen, and they can be exported to a file before anything
 * is closed. The alert stays until a later save succeeds.
 */
import { Trans } from "@lingui/react/macro";
import { ExportAnswersButton } from "./export-answers-button.tsx";
import type { SurveyDraft } from "./survey-draft.ts";
import "./survey-runner.css";

export function DraftNotSavedAlert({
  reason,
  title,
  draft,
}: {
  reason: string;
  title: string;
  draft: () => SurveyDraft;
}) {
  return (
    <div className="survey__draft-problem" role="alert">
      <p>
        <strong>
          <Trans id="survey_draft_not_saved">Your answers could not be saved on this device.</Trans>
        </strong>{" "}
        <Trans id="survey_draft_not_saved_body">
          They are still on this screen: do not close or reload it. Finish the form now, or export the answers
          to a file.
        </Trans>
      </p>
      <p className="survey__draft-problem-reason">
        <Trans id="survey_draft_not_saved_reason">The device said: {reason}</Trans>
      </p>
      <ExportAnswersButton title={title} draft={draft} />
    </div>
  );
}

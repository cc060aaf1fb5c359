/**
 * The way out when the device does not keep a form: the answers on screen, photos and
 * signatures included, downloaded to a file that the clinician can keep or hand on.
 */
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { downloadAnswers } from "./answers-export.ts";
import type { SurveyDraft } from "./survey-draft.ts";

export function ExportAnswersButton({ title, draft }: { title: string; draft: () => SurveyDraft }) {
  const [exporting, setExporting] = useState(false);
  const exportAnswers = async () => {
    setExporting(true);
    try {
      await downloadAnswers(title, draft());
    } finally {
      setExporting(false);
    }
  };
  return (
    <button
      type="button"
      className="button button--secondary"
      disabled={exporting}
      onClick={() => void exportAnswers()}
    >
      <Trans id="survey_export_answers">Export the answers</Trans>
    </button>
  );
}

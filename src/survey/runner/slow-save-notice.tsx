/**
 * Finish was chosen and the device has not yet stored the form (an IndexedDB that stalls: a
 * tablet short of storage, a browser busy with another tab's upgrade). The page cannot tell a slow
 * save from a stuck one, and it must not start a second save while the first may still complete:
 * the form would be stored, and sent, twice. So it says what is happening, keeps the answers on
 * screen, and offers the one safe way out, an export of the answers to a file. The save that is
 * under way still ends as it would (the status dialog, or the not-stored dialog with its retry).
 */
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { ExportAnswersButton } from "./export-answers-button.tsx";
import type { SurveyDraft } from "./survey-draft.ts";
import "./survey-runner.css";

/** A save that takes longer than this is said: IndexedDB stores a form in well under a second. */
export const SLOW_SAVE_NOTICE_MS = 4_000;

/** True once `saving` has been true for `afterMs` without a break. */
export function useSlowSave(saving: boolean, afterMs = SLOW_SAVE_NOTICE_MS) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!saving) return;
    const timer = window.setTimeout(() => setSlow(true), afterMs);
    // The save ended (or the page left): the next save starts its own count.
    return () => {
      window.clearTimeout(timer);
      setSlow(false);
    };
  }, [saving, afterMs]);
  return saving && slow;
}

export function SlowSaveNotice({ title, draft }: { title: string; draft: () => SurveyDraft }) {
  return (
    <div className="survey__slow-save" role="status">
      <p>
        <strong>
          <Trans id="survey_slow_save">Still saving on this device…</Trans>
        </strong>{" "}
        <Trans id="survey_slow_save_body">
          Your answers stay on this screen until they are saved: keep it open. If this goes on, export the
          answers to a file.
        </Trans>
      </p>
      <ExportAnswersButton title={title} draft={draft} />
    </div>
  );
}

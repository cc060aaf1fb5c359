/**
 * Claims a survey's draft for this tab (one owner across tabs) and loads it. The runner saves
 * through `save` after every change; the outbox removes the draft once the submission it
 * belongs to is delivered.
 */
import { useCallback, useEffect, useState } from "react";
import { claimDraft, loadDraft, saveDraft } from "../../outbox/drafts.ts";
import {
  fromStoredSurveyDraft,
  toStoredSurveyDraft,
  type StoredSurveyDraft,
  type SurveyDraft,
} from "./survey-draft.ts";

export type DraftStatus =
  { kind: "loading" } | { kind: "open-elsewhere" } | { kind: "ready"; draft: SurveyDraft | undefined };

/** A lock being released by a page that just left (or a remount) gets a moment to go. */
const CLAIM_ATTEMPTS = 3;
const CLAIM_RETRY_MS = 150;

async function claimWithRetry(draftKey: string) {
  for (let attempt = 1; ; attempt++) {
    const ownership = await claimDraft(draftKey);
    if (ownership.owned || attempt >= CLAIM_ATTEMPTS) return ownership;
    await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_MS));
  }
}

/**
 * Starts as soon as the page knows who and what (before the definition has arrived), so the
 * lock and the read overlap the download. The caller resumes the draft only when it belongs to
 * the definition it got (definitionKeyOf).
 */
export function useSurveyDraft(draftKey: string, userId: number | undefined) {
  const [status, setStatus] = useState<DraftStatus>({ kind: "loading" });

  useEffect(() => {
    if (userId === undefined) return;
    let release: (() => void) | undefined;
    let cancelled = false;
    void (async () => {
      const ownership = await claimWithRetry(draftKey);
      if (!ownership.owned) {
        if (!cancelled) setStatus({ kind: "open-elsewhere" });
        return;
      }
      if (cancelled) {
        ownership.release();
        return;
      }
      release = ownership.release;
      const saved = await loadDraft<StoredSurveyDraft | SurveyDraft>(draftKey);
      if (cancelled) return;
      const own = saved && saved.userId === userId ? fromStoredSurveyDraft(saved.value) : undefined;
      setStatus({ kind: "ready", draft: own });
    })();
    return () => {
      cancelled = true;
      release?.();
    };
  }, [draftKey, userId]);

  const save = useCallback(
    async (draft: SurveyDraft) => {
      if (userId !== undefined) await saveDraft(draftKey, userId, await toStoredSurveyDraft(draft));
    },
    [draftKey, userId],
  );

  return { status, save };
}

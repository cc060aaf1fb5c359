/**
 * Keeps a survey's draft on the device while it is answered: a completed step (a new flow) is
 * saved at once, typing within a step at most every DRAFT_TYPING_SAVE_MS, and whatever is pending
 * when the tab is hidden, the page is left or the runner unmounts. A save the device refuses is
 * reported (`problem`) until a later one succeeds: the clinician is told at once.
 *
 * `hold()` stops saving while the page takes the finished survey (it removes the draft once the
 * result is queued); `release()` saves again when the page could not take it.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { SurveyDraft } from "./survey-draft.ts";

/**
 * Typing saves the draft at most this often: a long survey's whole draft is not rewritten on
 * every keystroke. A completed step, a hidden tab and leaving the page save at once.
 */
export const DRAFT_TYPING_SAVE_MS = 250;

export function useDraftAutosave(draft: SurveyDraft, saveDraft: (draft: SurveyDraft) => Promise<void>) {
  const [problem, setProblem] = useState<string | null>(null);
  const pending = useRef<SurveyDraft | null>(null);
  const savedFlow = useRef<SurveyDraft["flow"] | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const held = useRef(false);

  const flush = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const next = pending.current;
    if (!next || held.current) return;
    pending.current = null;
    savedFlow.current = next.flow;
    saveDraft(next).then(
      () => setProblem(null),
      (error: unknown) => {
        console.error("The draft could not be saved on this device", error);
        setProblem(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      },
    );
  }, [saveDraft]);

  /** The draft as it stands, whether saved or not: what release() saves. */
  const latest = useRef<SurveyDraft>(draft);
  const { definitionKey, flow, answers, files } = draft;
  useEffect(() => {
    latest.current = { definitionKey, flow, answers, files };
    pending.current = latest.current;
    if (savedFlow.current !== flow) flush();
    else timer.current ??= window.setTimeout(flush, DRAFT_TYPING_SAVE_MS);
  }, [flush, definitionKey, flow, answers, files]);

  useEffect(() => {
    const flushWhenHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    document.addEventListener("visibilitychange", flushWhenHidden);
    window.addEventListener("pagehide", flush);
    return () => {
      document.removeEventListener("visibilitychange", flushWhenHidden);
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [flush]);

  const hold = useCallback(() => {
    flush();
    held.current = true;
  }, [flush]);
  const release = useCallback(() => {
    held.current = false;
    pending.current = latest.current;
    flush();
  }, [flush]);

  return { problem, hold, release };
}

/**
 * Drafts: the answers of an instrument or consent in progress, saved to IndexedDB on every
 * answer so that a reload, a crash or an inactivity sign-out resumes where the clinician was.
 * A draft has one owner at a time across tabs (a Web Lock named after it): a second tab is told
 * the draft is open elsewhere instead of forking it. A draft the outbox delivered is removed.
 */
import { createStore, del, get, set } from "idb-keyval";

const draftStore = createStore("clinro-drafts", "drafts");

export type Draft<T> = { key: string; userId: number; savedAt: number; value: T };

/** One draft per user, study, participant and form. */
export function draftKeyFor(parts: {
  userId: number;
  studyId: number;
  participantId: number;
  formId: string;
}) {
  return `${parts.userId}:${parts.studyId}:${parts.participantId}:${parts.formId}`;
}

export async function saveDraft<T>(key: string, userId: number, value: T, now = Date.now()) {
  await set(key, { key, userId, savedAt: now, value } satisfies Draft<T>, draftStore);
}

export function loadDraft<T>(key: string) {
  return get<Draft<T>>(key, draftStore);
}

export function removeDraft(key: string) {
  return del(key, draftStore);
}

export type DraftOwnership = { owned: true; release: () => void } | { owned: false };

/**
 * Takes the draft for this tab if no other tab holds it. The lock is held until `release` is
 * called or the tab goes away (closing or crashing frees it).
 */
export function claimDraft(key: string): Promise<DraftOwnership> {
  if (typeof navigator === "undefined" || !navigator.locks) {
    return Promise.resolve({ owned: true, release: () => {} });
  }
  return new Promise((resolve) => {
    void navigator.locks.request(`clinro-draft:${key}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve({ owned: false });
        return undefined;
      }
      return new Promise<void>((release) => resolve({ owned: true, release: () => release() }));
    });
  });
}

/**
 * Drafts: the answers of an instrument or consent in progress, saved to IndexedDB on every
 * answer so that a reload, a crash or an inactivity sign-out resumes where the clinician was.
 * A draft has one owner at a time across tabs (a Web Lock named after it): a second tab is told
 * the draft is open elsewhere instead of forking it. A draft the outbox delivered is removed.
 */
import { createStore, del, entries, get, set } from "idb-keyval";
import type { UnreadableRecord } from "./outbox-store.ts";
import { readDraftRecord, toStoredDraft } from "./stored-records.ts";

const draftStore = createStore("clinro-drafts", "drafts");
/** Where a draft that cannot be read is moved, so that a new draft does not overwrite it. */
const UNREADABLE_PREFIX = "unreadable:";

export type Draft<T> = { key: string; userId: number; savedAt: number; value: T };

/**
 * Opens the drafts database before the page reads its draft: on a device's first visit the
 * browser creates it, tens of milliseconds that the instrument route's loader overlaps with the
 * page's code and first render instead of the first question waiting on them.
 */
export function openDraftStore() {
  draftStore("readonly", () => undefined).catch(() => undefined);
}

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
  await set(key, toStoredDraft({ key, userId, savedAt: now, value } satisfies Draft<T>), draftStore);
}

/**
 * The draft, migrated to the current shape. One that cannot be read is moved aside (kept, and
 * listed by listUnreadableDrafts) and the form starts empty: the next save must not overwrite it.
 */
export async function loadDraft<T>(key: string): Promise<Draft<T> | undefined> {
  const raw = await get<unknown>(key, draftStore);
  if (raw === undefined) return undefined;
  const read = readDraftRecord(raw);
  if (read.ok) return read.value as Draft<T>;
  await set(`${UNREADABLE_PREFIX}${Date.now()}:${key}`, raw, draftStore);
  await del(key, draftStore);
  return undefined;
}

/** The drafts that could not be read, as they were found. */
export async function listUnreadableDrafts(): Promise<UnreadableRecord[]> {
  const unreadable: UnreadableRecord[] = [];
  for (const [key, raw] of await entries<IDBValidKey, unknown>(draftStore)) {
    const name = String(key);
    if (!name.startsWith(UNREADABLE_PREFIX)) continue;
    const read = readDraftRecord(raw);
    unreadable.push({
      store: "drafts",
      key: name,
      problem: read.ok ? "moved aside" : read.problem,
      record: raw,
    });
  }
  return unreadable;
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

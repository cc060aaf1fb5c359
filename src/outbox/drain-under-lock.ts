/**
 * One drain with the browser's real parts (IndexedDB, fetch), under the Web Lock that keeps it
 * to one tab or worker at a time. Shared by the pages and the service worker, so it uses no DOM.
 */
import { sendOutboxItem } from "./send-item.ts";
import { removeDraft } from "./drafts.ts";
import { drainOutbox, type DrainDependencies, type DrainOptions, type DrainReport } from "./drain.ts";
import { indexedDbOutboxStore } from "./outbox-store.ts";
import { indexedDbSessionTokens } from "./session-tokens.ts";
import { indexedDbParticipantIds } from "./participant-id-store.ts";

export const FLUSH_LOCK_NAME = "clinro-outbox-flush";
export const BACKGROUND_SYNC_TAG = "clinro-outbox";

export function outboxDrainDependencies(): DrainDependencies {
  return {
    store: indexedDbOutboxStore,
    tokens: indexedDbSessionTokens,
    send: (item, token) => sendOutboxItem(item, token),
    participantIds: indexedDbParticipantIds,
    onDelivered: async (item) => {
      if (item.draftKey) await removeDraft(item.draftKey);
    },
  };
}

export async function drainUnderLock(options: DrainOptions = {}): Promise<DrainReport> {
  const drain = () => drainOutbox(outboxDrainDependencies(), options);
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(FLUSH_LOCK_NAME, drain);
  }
  return drain();
}

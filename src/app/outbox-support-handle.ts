/**
 * `window.clinroOutbox`: the outbox as seen from the browser console, for a site's IT person
 * and for the end-to-end tests. It uses the same enqueue, list and retry functions as the
 * screens; it can only act for the signed-in user.
 */
import { getStoredUser } from "../auth/session-store.ts";
import { claimDraft, loadDraft, saveDraft, type DraftOwnership } from "../outbox/drafts.ts";
import { enqueueSubmissionWithUploads, enqueueWrite, eventsWrite, uploadWrite } from "../outbox/enqueue.ts";
import { requestFlush, retryNow } from "../outbox/flusher.ts";
import { listItems } from "../outbox/outbox-store.ts";
import { FILE_MODULE } from "../../core/contracts/files.ts";

function signedInContext(participantId?: number) {
  const user = getStoredUser();
  if (!user) throw new Error("Sign in first: outbox items belong to the signed-in user.");
  return { userId: user.id, username: user.username, participantId };
}

const heldDrafts = new Map<string, DraftOwnership>();

export const outboxSupportHandle = {
  async enqueueEvents(events: unknown[], label: string, participantId?: number) {
    return (await enqueueWrite(eventsWrite(events, label), signedInContext(participantId))).id;
  },
  async enqueueUpload(bytes: number[], type: string, fileName: string, participantId: number) {
    const write = uploadWrite(new Blob([new Uint8Array(bytes)], { type }), {
      file_name: fileName,
      module_name: FILE_MODULE.clinician,
      participant_id: participantId,
    });
    return (await enqueueWrite(write, signedInContext(participantId))).id;
  },
  enqueueSubmissionWithUploads,
  /** Items without their file contents. */
  async list() {
    return (await listItems()).map(({ request, ...item }) => ({ ...item, path: request.path }));
  },
  flush: () => requestFlush(),
  async retryAll() {
    return retryNow((await listItems()).map((item) => item.id));
  },
  drafts: {
    save: (key: string, value: unknown) => saveDraft(key, signedInContext().userId, value),
    load: (key: string) => loadDraft(key),
    async claim(key: string) {
      const ownership = await claimDraft(key);
      if (ownership.owned) heldDrafts.set(key, ownership);
      return ownership.owned;
    },
    release(key: string) {
      const ownership = heldDrafts.get(key);
      if (ownership?.owned) ownership.release();
      heldDrafts.delete(key);
    },
  },
};

declare global {
  interface Window {
    clinroOutbox?: typeof outboxSupportHandle;
  }
}

export function exposeOutboxSupportHandle() {
  window.clinroOutbox = outboxSupportHandle;
}

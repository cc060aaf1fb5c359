/**
 * Events (seen, read, cancelled, delivered…) go to the outbox like every write, but a screen does
 * not wait on them: one the device refuses to store is said at once (a toast with the reason in
 * the console) and never stops the clinician, e.g. from opening the instrument a read event
 * belongs to. No write path fails silently.
 */
import { msg } from "@lingui/core/macro";
import { enqueueWrite, type StorableWrite, type WriteContext } from "../outbox/enqueue.ts";
import { showToast, TOAST_ERROR_MS } from "../widgets/toast/toast-store.ts";

const eventNotStoredMessage = msg({
  id: "outbox_event_not_stored",
  message:
    "This device could not store an activity record. Check its free storage, or leave a private window.",
});

export async function enqueueEvent(write: StorableWrite, context: WriteContext): Promise<void> {
  try {
    await enqueueWrite(write, context);
  } catch (error) {
    console.error("An event could not be stored on this device", error);
    showToast(eventNotStoredMessage, "error", TOAST_ERROR_MS);
  }
}

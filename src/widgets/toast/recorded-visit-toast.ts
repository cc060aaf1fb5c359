/**
 * The recorded-visit toast (spec 01 section 9, spec 02 section 2): after a recorded visit's room
 * closes, 'This visit was recorded.' stays 5 seconds.
 */
import { msg } from "@lingui/core/macro";
import { showToast } from "./toast-store.ts";

/** The recorded-visit toast stays 5 seconds (spec 01 section 9). */
export const TOAST_RECORDED_VISIT_MS = 5000;
const recordedMessage = msg({ id: "visit_recorded_toast", message: "This visit was recorded." });

export function showRecordedVisitToast(): number {
  return showToast(recordedMessage, "info", TOAST_RECORDED_VISIT_MS);
}

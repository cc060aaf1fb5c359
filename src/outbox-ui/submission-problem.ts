/**
 * What a screen that submitted through the outbox should show, from the outbox as observed:
 * spec 02 "Submit" and error catalogue. Plain data in, a code out; the modal turns it into text.
 *
 * - an upload the submission waits for has an error or was refused → the failed-files modal,
 *   whose Retry sends only those uploads (the submission follows by itself);
 * - the submission was refused for good → the refused modal (kept for review, never resent blindly);
 * - the submission has an error and waits to be retried, or a network error ended the round
 *   before its turn → the network error modal;
 * - the submission is for a participant enrolled offline whose enrolment has not gone through
 *   (no connection, or refused) → the network error modal too: the answers are kept on the
 *   device and sent after the participant; its Retry sends the enrolment as well;
 * - the submission is gone from the outbox → delivered.
 * Waiting for its turn, or for its user to sign in again, shows nothing here.
 */
import { failedDependencies } from "../outbox/item-status.ts";
import type { ObservedItem } from "./use-outbox.ts";

export type SubmissionProblem =
  | { kind: "none" }
  | { kind: "delivered" }
  | { kind: "failed-files"; uploads: ObservedItem[] }
  | { kind: "network"; submission: ObservedItem; waitsFor?: ObservedItem[] }
  | { kind: "refused"; submission: ObservedItem };

/**
 * @param items the observed outbox, undefined while it loads
 * @param fresh whether `items` was read after the submission was enqueued: only then does a
 *   missing submission mean it was delivered
 */
export function submissionProblem(
  submissionId: string,
  items: readonly ObservedItem[] | undefined,
  fresh: boolean,
): SubmissionProblem {
  if (!items) return { kind: "none" };
  const submission = items.find((item) => item.id === submissionId);
  if (!submission) return fresh ? { kind: "delivered" } : { kind: "none" };
  const failedIds = new Set(failedDependencies(submission, items).map((upload) => upload.id));
  const failed = items.filter((item) => failedIds.has(item.id));
  const failedUploads = failed.filter((item) => item.kind !== "enrolment");
  if (failedUploads.length > 0) return { kind: "failed-files", uploads: failedUploads };
  if (submission.state === "failed") return { kind: "refused", submission };
  const stalledEnrolments = failed.filter((item) => item.kind === "enrolment");
  if (stalledEnrolments.length > 0) return { kind: "network", submission, waitsFor: stalledEnrolments };
  if (submission.lastError && submission.status === "retrying") return { kind: "network", submission };
  // Not tried yet because the item before it met the network error: it did not go either.
  if (submission.lastError?.kind === "network" && submission.status === "queued") {
    return { kind: "network", submission };
  }
  return { kind: "none" };
}

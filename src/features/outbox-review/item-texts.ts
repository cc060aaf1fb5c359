/**
 * The words for an outbox item, as message descriptors translated where they are shown: what it
 * is and how it stands, in a coordinator's words. No internal kind shows:
 * a submission is a form, an event an update. How it stands is one of three words (waiting,
 * sending, failed) and a line that says why.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { OutboxItemStatus, OutboxKind } from "../../outbox/outbox-item.ts";

export const KIND_TEXT: Record<OutboxKind, MessageDescriptor> = {
  submission: msg({ id: "outbox_what_form", message: "Form" }),
  consent: msg({ id: "outbox_what_consent", message: "Consent form" }),
  upload: msg({ id: "outbox_what_file", message: "Photo, signature or file" }),
  event: msg({ id: "outbox_what_update", message: "Update (a form opened, an announcement read)" }),
  enrolment: msg({ id: "outbox_what_enrolment", message: "New participant" }),
  revocation: msg({
    id: "outbox_what_revocation",
    message: "Sign-out, to close the session on the server",
  }),
  "signing-refusal": msg({
    id: "outbox_what_signing_refusal",
    message: "A wrong signing password, for the audit trail",
  }),
};

/**
 * The item's name: a form's or a file's as it was stored; a sign-out and a refused signing
 * password, which no person named, are called what they are.
 */
export const OWN_LABEL_TEXT: Partial<Record<OutboxKind, MessageDescriptor>> = {
  revocation: msg({ id: "outbox_label_revocation", message: "Sign-out" }),
  "signing-refusal": msg({ id: "outbox_label_signing_refusal", message: "Wrong signing password" }),
};

/** The three states a coordinator tells apart. */
export type StatusWord = "waiting" | "sending" | "failed";

export function statusWord(status: OutboxItemStatus, sending: boolean): StatusWord {
  if (status === "failed") return "failed";
  return sending ? "sending" : "waiting";
}

export const STATUS_WORD_TEXT: Record<StatusWord, MessageDescriptor> = {
  waiting: msg({ id: "outbox_word_waiting", message: "Waiting" }),
  sending: msg({ id: "outbox_word_sending", message: "Sending" }),
  failed: msg({ id: "outbox_word_failed", message: "Failed" }),
};

/** Why it stands so. */
export const STATUS_TEXT: Record<OutboxItemStatus, MessageDescriptor> = {
  queued: msg({ id: "outbox_status_queued", message: "Waiting to be sent" }),
  retrying: msg({ id: "outbox_status_retrying", message: "Not sent yet, retrying automatically" }),
  "waiting-for-dependencies": msg({
    id: "outbox_status_waiting_for_files",
    message: "Waiting for its photos and signatures to be sent first",
  }),
  "waiting-for-sign-in": msg({
    id: "outbox_status_waiting_for_sign_in",
    message: "Waiting for its author to sign in again",
  }),
  failed: msg({ id: "outbox_status_failed", message: "Refused by the server, not retried automatically" }),
};

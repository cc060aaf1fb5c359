/**
 * The words for an outbox item's kind and status, as message descriptors translated where they
 * are shown.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { OutboxItemStatus, OutboxKind } from "../../outbox/outbox-item.ts";

export const KIND_TEXT: Record<OutboxKind, MessageDescriptor> = {
  submission: msg({ id: "outbox_kind_submission", message: "Instrument submission" }),
  consent: msg({ id: "outbox_kind_consent", message: "Consent" }),
  upload: msg({ id: "outbox_kind_upload", message: "File upload" }),
  event: msg({ id: "outbox_kind_event", message: "Event" }),
  enrolment: msg({ id: "outbox_kind_enrolment", message: "New participant" }),
};

export const STATUS_TEXT: Record<OutboxItemStatus, MessageDescriptor> = {
  queued: msg({ id: "outbox_status_queued", message: "Waiting to be sent" }),
  retrying: msg({ id: "outbox_status_retrying", message: "Not sent yet, retrying automatically" }),
  "waiting-for-dependencies": msg({
    id: "outbox_status_waiting_for_dependencies",
    message: "Waiting for its files to be sent",
  }),
  "waiting-for-sign-in": msg({
    id: "outbox_status_waiting_for_sign_in",
    message: "Waiting for its author to sign in again",
  }),
  failed: msg({ id: "outbox_status_failed", message: "Refused by the server, not retried automatically" }),
};

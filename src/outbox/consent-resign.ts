/**
 * A consent session refused on arrival because its staff signer's password no longer checks
 * (422 signing_password_invalid: typically signed offline, then the password was changed). The
 * server stored nothing of it; the outbox keeps it, with the participant's signatures and every
 * answer. The staff signer signs it again from the queue with their current password: the item
 * is revised with the new password proof only, and sent as a new request.
 */
import type { ConsentSigning } from "../../core/contracts/consent-schemas.ts";
import { SIGNING_PASSWORD_INVALID } from "../../core/contracts/signing-codes.ts";
import type { UserSignerRole } from "../../core/contracts/roles.ts";
import type { OutboxItem } from "./outbox-item.ts";
import { replaceItem } from "./enqueue.ts";
import { getItem } from "./outbox-store.ts";

/** The staff signer's role of a consent item: the witness endpoint's, or the clinician's. */
export function signerRoleOfConsentItem(item: Pick<OutboxItem, "request">): UserSignerRole {
  return item.request.path.startsWith("/control/v2/witness/") ? "witness" : "clinro";
}

/** Whether the item is a consent refused for its signer's password, which its signer may sign again. */
export function needsSigningAgain(item: Pick<OutboxItem, "kind" | "state" | "lastError" | "request">) {
  return (
    item.kind === "consent" &&
    item.state === "failed" &&
    item.lastError?.code === SIGNING_PASSWORD_INVALID &&
    item.request.body.type === "json"
  );
}

/** The consent id the session signs, from its body. */
export function consentIdOfItem(item: Pick<OutboxItem, "request">): number | undefined {
  const { body } = item.request;
  const value = body.type === "json" ? (body.value as { consent_id?: unknown } | null) : null;
  return typeof value?.consent_id === "number" ? value.consent_id : undefined;
}

/** The item with a new password proof and a new id, waiting to be sent; nothing else changed. */
export function withNewSigning(
  item: OutboxItem,
  signing: Pick<ConsentSigning, "kid" | "password_ciphertext" | "captured_at" | "time_zone">,
): OutboxItem {
  if (item.request.body.type !== "json") throw new Error("A consent item holds a JSON body.");
  const body = item.request.body.value as Record<string, unknown>;
  const { lastError: _refusal, ...kept } = item;
  return {
    ...kept,
    id: crypto.randomUUID(),
    request: { ...item.request, body: { type: "json", value: { ...body, signing } } },
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
  };
}

/** Signs the refused consent again: stored in its place and sent. Answers the new item. */
export async function signConsentAgain(
  id: string,
  signing: Pick<ConsentSigning, "kid" | "password_ciphertext" | "captured_at" | "time_zone">,
): Promise<OutboxItem> {
  const item = await getItem(id);
  if (!item || !needsSigningAgain(item)) {
    throw new Error("Only a consent refused for its signer's password is signed again.");
  }
  const revised = withNewSigning(item, signing);
  await replaceItem(item, revised);
  return revised;
}

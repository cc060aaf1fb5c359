/**
 * A signing password refused by the device while offline, queued for the audit trail
 * (POST /control/v2/signing-password/refusals; 21 CFR 11.300(d)): the server records each one
 * when the outbox reaches it. The item belongs to the session in which the password was typed
 * and goes with that session's token, so that it is sent even after that session ended (the
 * fifth refusal ends it), before its revocation (drain.ts).
 */
import { reportSigningRefusalCall } from "../../core/contracts/calls/signing-calls.ts";
import type { SigningRefusalReport } from "../../core/contracts/signing-attempts.ts";
import { makeOutboxItem, requestOutboxFlush } from "./enqueue.ts";
import type { OutboxItem } from "./outbox-item.ts";
import { putItem } from "./outbox-store.ts";

export type RefusingSession = { userId: number; username: string; token: string; exp: number };

export function signingRefusalItem(
  report: SigningRefusalReport,
  session: RefusingSession,
  now = Date.now(),
): OutboxItem {
  return makeOutboxItem(
    {
      kind: "signing-refusal",
      label: "Wrong signing password",
      request: {
        method: reportSigningRefusalCall.method,
        path: reportSigningRefusalCall.path,
        body: { type: "json", value: report },
      },
    },
    { userId: session.userId, username: session.username },
    now,
    { token: session.token, exp: session.exp },
  );
}

export async function queueSigningRefusal(report: SigningRefusalReport, session: RefusingSession) {
  await putItem(signingRefusalItem(report, session));
  requestOutboxFlush();
}

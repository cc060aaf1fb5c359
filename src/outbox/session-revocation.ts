/**
 * A sign-out told to the server through the outbox (spec 01 section 4: sign-out and the idle
 * timeout end the session). Queued rather than sent once, so that a sign-out made offline still
 * ends the token on the server when the device is online again, instead of leaving it valid until
 * it expires. The item holds the token it ends (`session`): its user's token is removed from the
 * outbox at sign-out. The drain sends it before anything else of its user (drain.ts).
 */
import { logoutCall } from "../../core/contracts/calls/account-calls.ts";
import { makeOutboxItem, requestOutboxFlush } from "./enqueue.ts";
import type { OutboxItem } from "./outbox-item.ts";
import { listItems, putItem } from "./outbox-store.ts";

export type EndedSession = { userId: number; username: string; token: string; exp: number };

export function revocationItem(session: EndedSession, now = Date.now()): OutboxItem {
  return makeOutboxItem(
    {
      kind: "revocation",
      label: "Sign-out",
      request: { method: logoutCall.method, path: logoutCall.path, body: { type: "empty" } },
    },
    { userId: session.userId, username: session.username },
    now,
    { token: session.token, exp: session.exp },
  );
}

/** Queues the revocation of a session's token (once per token) and asks for a flush. */
export async function queueRevocation(session: EndedSession): Promise<void> {
  const queued = await listItems();
  if (queued.some((item) => item.kind === "revocation" && item.session?.token === session.token)) return;
  await putItem(revocationItem(session));
  requestOutboxFlush();
}

/** Whether a sign-out of this device has not reached the server yet. */
export function isRevocationPending(items: readonly Pick<OutboxItem, "kind">[]) {
  return items.some((item) => item.kind === "revocation");
}

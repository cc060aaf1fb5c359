/**
 * How an item stands, for screens: derived from the item, the items it waits for and whether its
 * user can send. Plain data in, a code out.
 */
import type { OutboxItem, OutboxItemStatus } from "./outbox-item.ts";
import { usableToken } from "./session-tokens.ts";

export function itemStatus(
  item: OutboxItem,
  allItems: readonly OutboxItem[],
  userCanSend: (userId: number) => boolean,
  now = Date.now(),
): OutboxItemStatus {
  if (item.state === "failed") return "failed";
  const ids = new Set(allItems.map((other) => other.id));
  if (item.dependsOn.some((id) => ids.has(id))) return "waiting-for-dependencies";
  // A revocation goes with the token it ends, even once that has expired (it is then dropped).
  const ownSession = item.kind === "revocation" || usableToken(item.session, now) !== undefined;
  if (!ownSession && !userCanSend(item.userId)) return "waiting-for-sign-in";
  return item.attempts > 0 ? "retrying" : "queued";
}

/** The items a submission waits for that did not go through: what "retry failed files" retries. */
export function failedDependencies(item: OutboxItem, allItems: readonly OutboxItem[]) {
  return allItems.filter(
    (other) => item.dependsOn.includes(other.id) && (other.state === "failed" || other.lastError),
  );
}

/**
 * Draining the outbox: send what is due, oldest first, and record what happened. Plain
 * TypeScript with its storage, tokens and transport handed in, so that the pages, the service
 * worker and the unit tests run the very same rules:
 *
 * - an item leaves the outbox only after a 2xx answer (the server's replay of one counts);
 * - a submission waits until the items it depends on (its uploads) are delivered;
 * - 5xx, 408, 429 and network errors are retried with backoff; a network error ends the round;
 * - a 401 marks that user's token rejected: their items wait for them to sign in again;
 * - any other 4xx marks the item failed: kept and shown, never retried blindly;
 * - each item goes with the token of the user who made it; nothing is dropped for its age.
 */
import type { SendOutcome } from "../api/send-outbox-item.ts";
import { retryDelayMs, verdictForStatus } from "./backoff.ts";
import type { OutboxItem } from "./outbox-item.ts";
import type { OutboxStore } from "./outbox-store.ts";
import { usableToken, type SessionTokens } from "./session-tokens.ts";

export type DrainDependencies = {
  store: OutboxStore;
  tokens: SessionTokens;
  send: (item: OutboxItem, token: string) => Promise<SendOutcome>;
  now?: () => number;
  random?: () => number;
  /** After delivery: e.g. remove the item's draft. */
  onDelivered?: (item: OutboxItem) => Promise<void>;
};

export type DrainOptions = {
  /** Send even items whose backoff has not run out ("Retry now"). */
  ignoreBackoff?: boolean;
  /** Only these items (and what they wait for is not sent either). */
  onlyIds?: readonly string[];
};

export type DrainReport = {
  delivered: string[];
  retrying: string[];
  refused: string[];
  waitingForSignIn: string[];
  /** True when a network error ended the round early. */
  offline: boolean;
  /** When the earliest item in backoff becomes due, if any. */
  nextDueAt?: number;
};

export async function drainOutbox(deps: DrainDependencies, options: DrainOptions = {}): Promise<DrainReport> {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const report: DrainReport = {
    delivered: [],
    retrying: [],
    refused: [],
    waitingForSignIn: [],
    offline: false,
  };
  const rejectedUsers = new Set<number>();
  const items = await deps.store.list();
  const remaining = new Set(items.map((item) => item.id));

  for (const item of items) {
    if (options.onlyIds && !options.onlyIds.includes(item.id)) continue;
    if (item.state === "failed") continue;
    if (item.dependsOn.some((id) => remaining.has(id))) continue;
    if (!options.ignoreBackoff && item.nextAttemptAt > now()) {
      report.nextDueAt = Math.min(report.nextDueAt ?? Infinity, item.nextAttemptAt);
      continue;
    }
    const token = rejectedUsers.has(item.userId)
      ? undefined
      : usableToken(await deps.tokens.get(item.userId), now());
    if (!token) {
      report.waitingForSignIn.push(item.id);
      continue;
    }

    const outcome = await deps.send(item, token);
    const at = now();
    if (outcome.kind === "network") {
      const attempts = item.attempts + 1;
      await deps.store.update(item.id, (current) => ({
        ...current,
        attempts,
        nextAttemptAt: at + retryDelayMs(attempts, random),
        lastError: { kind: "network", message: outcome.message, at },
      }));
      report.retrying.push(item.id);
      report.offline = true;
      break;
    }

    const verdict = verdictForStatus(outcome.status);
    const lastError = { kind: "http" as const, status: outcome.status, message: outcome.message, at };
    if (verdict === "delivered") {
      await deps.store.remove(item.id);
      remaining.delete(item.id);
      report.delivered.push(item.id);
      await deps.onDelivered?.(item);
    } else if (verdict === "sign-in") {
      rejectedUsers.add(item.userId);
      await deps.tokens.markRejected(item.userId, token);
      await deps.store.update(item.id, (current) => ({
        ...current,
        attempts: current.attempts + 1,
        lastError,
      }));
      report.waitingForSignIn.push(item.id);
    } else if (verdict === "retry") {
      const attempts = item.attempts + 1;
      const nextAttemptAt = at + retryDelayMs(attempts, random);
      await deps.store.update(item.id, (current) => ({ ...current, attempts, nextAttemptAt, lastError }));
      report.retrying.push(item.id);
      report.nextDueAt = Math.min(report.nextDueAt ?? Infinity, nextAttemptAt);
    } else {
      await deps.store.update(item.id, (current) => ({
        ...current,
        attempts: current.attempts + 1,
        state: "failed",
        lastError,
      }));
      report.refused.push(item.id);
    }
  }
  return report;
}

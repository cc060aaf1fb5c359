/**
 * Draining the outbox: send what is due, oldest first, and record what happened. Plain
 * TypeScript with its storage, tokens and transport handed in, so that the pages, the service
 * worker and the unit tests run the very same rules:
 *
 * - an item leaves the outbox only after a 2xx answer (the server's replay of one counts);
 * - one participant's items go one at a time, oldest first (a lane per participant, or per user
 *   for items about no participant); up to `concurrency` lanes send side by side, so 500 queued
 *   items do not wait for 500 round trips in a row;
 * - a submission waits until the items it depends on (its uploads) are delivered, whichever
 *   lane they are in;
 * - 5xx, 408, 429 and network errors are retried with backoff; a network error ends the round;
 * - a rating refused because the participant's consent is not complete yet (409
 *   consent_required) is held and retried with backoff: the consent signed on this device before
 *   it is ahead of it in its participant's lane;
 * - a 401 marks that user's token rejected: their items wait for them to sign in again;
 * - a sign-out (a revocation, session-revocation.ts) goes before anything else of its user: first
 *   the signing refusals made in that session, with its token, then the revocation; the user's
 *   other items wait while it is in the outbox. A revocation's 401 means the token is already
 *   dead: done;
 * - an item of a session (`session`) goes with that session's token while it lasts;
 * - any other 4xx marks the item failed: kept and shown, never retried blindly;
 * - each item goes with the token of the user who made it; nothing is dropped for its age;
 * - offline enrolment (provisional-participants.ts): an item naming a provisional participant is
 *   sent only once the server has enrolled them, rewritten with their id; the id an enrolment's
 *   answer gives is recorded in the durable map and the waiting items rewritten before the
 *   enrolment leaves the outbox; an item whose participant was never enrolled is failed, never
 *   sent with a provisional id.
 */
import type { SendOutcome } from "./send-item.ts";
import { retryDelayMs, verdictForStatus } from "./backoff.ts";
import type { OutboxItem } from "./outbox-item.ts";
import type { OutboxStore } from "./outbox-store.ts";
import { usableToken, type SessionTokens } from "./session-tokens.ts";
import {
  clientIdOfEnrolment,
  enrolledParticipantOf,
  isProvisionalParticipantId,
  memoryParticipantIds,
  withEnrolledParticipant,
  type ParticipantIdMap,
} from "./provisional-participants.ts";

export type DrainDependencies = {
  store: OutboxStore;
  tokens: SessionTokens;
  send: (item: OutboxItem, token: string) => Promise<SendOutcome>;
  now?: () => number;
  random?: () => number;
  /** After delivery: e.g. remove the item's draft. */
  onDelivered?: (item: OutboxItem) => Promise<void>;
  /** How many lanes send at once; DRAIN_CONCURRENCY unless told. */
  concurrency?: number;
  /** Provisional participant ids and the server ids they were given (memory unless told). */
  participantIds?: ParticipantIdMap;
};

/** Small: a clinic's connection is shared, and the server serves other sites too. */
export const DRAIN_CONCURRENCY = 4;

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
  const concurrency = Math.max(1, deps.concurrency ?? DRAIN_CONCURRENCY);
  const report: DrainReport = {
    delivered: [],
    retrying: [],
    refused: [],
    waitingForSignIn: [],
    offline: false,
  };
  const rejectedUsers = new Set<number>();
  const participantIds = deps.participantIds ?? memoryParticipantIds();
  const items = await deps.store.list();
  const remaining = new Set(items.map((item) => item.id));

  /**
   * The item as it may be sent: with its provisional participant's server id; `wait` while their
   * enrolment is still in the outbox, `unknown` when no enrolment will ever name them.
   */
  const resolveParticipant = async (item: OutboxItem): Promise<OutboxItem | "wait" | "unknown"> => {
    if (item.kind === "enrolment" || !isProvisionalParticipantId(item.participantId)) return item;
    const provisionalId = item.participantId;
    const enrolled = await participantIds.get(provisionalId);
    if (enrolled) {
      const resolved = withEnrolledParticipant(item, enrolled.participantId);
      // Stored before it is sent: every send of one Idempotency-Key must be the same request.
      await deps.store.update(item.id, (current) => withEnrolledParticipant(current, enrolled.participantId));
      return resolved;
    }
    const isItsEnrolment = (other: OutboxItem) =>
      other.kind === "enrolment" && other.participantId === provisionalId;
    // This round's list first; the store only when the enrolment is not in it (revised meanwhile).
    if (items.some((other) => isItsEnrolment(other) && remaining.has(other.id))) return "wait";
    return (await deps.store.list()).some(isItsEnrolment) ? "wait" : "unknown";
  };

  /**
   * A delivered enrolment: its participant's id is recorded, then the items waiting for it are
   * rewritten with it; false when the answer does not name the participant sent.
   */
  const recordEnrolment = async (item: OutboxItem, body: unknown): Promise<boolean> => {
    const clientId = clientIdOfEnrolment(item);
    const enrolled = clientId === undefined ? undefined : enrolledParticipantOf(body, clientId);
    if (!enrolled || !isProvisionalParticipantId(item.participantId)) return false;
    const provisionalId = item.participantId;
    await participantIds.set(provisionalId, enrolled);
    for (const waiting of await deps.store.list()) {
      if (waiting.kind === "enrolment" || waiting.participantId !== provisionalId) continue;
      await deps.store.update(waiting.id, (current) =>
        withEnrolledParticipant(current, enrolled.participantId),
      );
    }
    return true;
  };

  /** Sends one item and records the outcome (a network error marks the round offline). */
  const sendOne = async (queued: OutboxItem): Promise<void> => {
    const item = await resolveParticipant(queued);
    if (item === "wait") return;
    if (item === "unknown") {
      await deps.store.update(queued.id, (current) => ({
        ...current,
        state: "failed",
        lastError: { kind: "http", message: PARTICIPANT_NEVER_ENROLLED, at: now() },
      }));
      report.refused.push(queued.id);
      return;
    }
    const ownToken = usableToken(item.session, now());
    if (item.kind === "revocation" && !ownToken) {
      // Expired: the server no longer takes it, there is nothing left to end.
      await deps.store.remove(item.id);
      remaining.delete(item.id);
      report.delivered.push(item.id);
      return;
    }
    const token =
      ownToken ??
      (rejectedUsers.has(item.userId) ? undefined : usableToken(await deps.tokens.get(item.userId), now()));
    if (!token) {
      report.waitingForSignIn.push(item.id);
      return;
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
      return;
    }

    const code = errorCodeOf(outcome.body);
    const verdict = verdictForStatus(outcome.status, code);
    const lastError = {
      kind: "http" as const,
      status: outcome.status,
      ...(code ? { code } : {}),
      message: outcome.message,
      at,
    };
    if (
      verdict === "delivered" &&
      item.kind === "enrolment" &&
      !(await recordEnrolment(item, outcome.body))
    ) {
      await deps.store.update(item.id, (current) => ({
        ...current,
        attempts: current.attempts + 1,
        state: "failed",
        lastError: { ...lastError, message: ENROLMENT_ANSWER_UNREADABLE },
      }));
      report.refused.push(item.id);
    } else if (verdict === "delivered") {
      await deps.store.remove(item.id);
      remaining.delete(item.id);
      report.delivered.push(item.id);
      await deps.onDelivered?.(item);
    } else if (verdict === "sign-in" && item.kind === "revocation") {
      // The token no longer works: what the revocation was for.
      await deps.store.remove(item.id);
      remaining.delete(item.id);
      report.delivered.push(item.id);
    } else if (verdict === "sign-in" && token === ownToken) {
      // The session's token is spent: the item goes with its user's token from now on.
      await deps.store.update(item.id, ({ session: _spent, ...current }) => ({
        ...current,
        attempts: current.attempts + 1,
        lastError,
      }));
      report.waitingForSignIn.push(item.id);
    } else if (verdict === "sign-in") {
      rejectedUsers.add(item.userId);
      await deps.tokens.markRejected(item.userId, token, code);
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
  };

  // Sign-outs first, one after another, each after the refusals of its session.
  const revocations = items.filter((item) => item.kind === "revocation" && item.state !== "failed");
  const triedFirst = new Set<string>();
  for (const revocation of revocations) {
    const ofItsSession = items.filter(
      (item) =>
        item.kind === "signing-refusal" &&
        item.state !== "failed" &&
        item.session?.token === revocation.session?.token,
    );
    for (const item of [...ofItsSession, revocation]) {
      if (report.offline) break;
      if (!options.ignoreBackoff && item.nextAttemptAt > now()) {
        report.nextDueAt = Math.min(report.nextDueAt ?? Infinity, item.nextAttemptAt);
        continue;
      }
      triedFirst.add(item.id);
      await sendOne(item);
    }
  }
  /** Users whose sign-out has not reached the server: nothing else of theirs goes before it. */
  const signingOut = new Set(
    revocations.filter((item) => remaining.has(item.id)).map((revocation) => revocation.userId),
  );

  // What this round may send, in lanes; an item in backoff is left for later, not waited for.
  const lanes = new Map<string, OutboxItem[]>();
  for (const item of items) {
    if (triedFirst.has(item.id) || item.kind === "revocation" || signingOut.has(item.userId)) continue;
    if (options.onlyIds && !options.onlyIds.includes(item.id)) continue;
    if (item.state === "failed") continue;
    if (!options.ignoreBackoff && item.nextAttemptAt > now()) {
      report.nextDueAt = Math.min(report.nextDueAt ?? Infinity, item.nextAttemptAt);
      continue;
    }
    const lane = laneOf(item);
    const queue = lanes.get(lane);
    if (queue) queue.push(item);
    else lanes.set(lane, [item]);
  }
  /** Items of this round not yet answered (or skipped): a dependent waits for them. */
  const unsettled = new Set([...lanes.values()].flat().map((item) => item.id));

  // The scheduler: a lane's first item starts when a slot is free and what it depends on in this
  // round has been answered; an item whose dependency is still in the outbox afterwards is left
  // for a later round. A network error starts nothing more; what is in flight finishes.
  const busyLanes = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const startable = () => {
    for (const [lane, queue] of lanes) {
      if (busyLanes.has(lane)) continue;
      for (;;) {
        const first = queue[0];
        if (!first) break;
        if (first.dependsOn.some((id) => !unsettled.has(id) && remaining.has(id))) {
          // Its upload was refused, is waiting or was not part of this round: not now.
          unsettled.delete(first.id);
          queue.shift();
          continue;
        }
        // What it waits for may stand behind it in its own lane (made in the same millisecond):
        // that goes first.
        const before = queue.findIndex((item) => first.dependsOn.includes(item.id));
        if (before <= 0) break;
        queue.unshift(...queue.splice(before, 1));
      }
      const head = queue[0];
      if (!head) {
        lanes.delete(lane);
        continue;
      }
      if (head.dependsOn.some((id) => unsettled.has(id))) continue;
      return { lane, item: head };
    }
    return undefined;
  };
  for (;;) {
    while (!report.offline && inFlight.size < concurrency) {
      const next = startable();
      if (!next) break;
      lanes.get(next.lane)!.shift();
      busyLanes.add(next.lane);
      const sending: Promise<void> = sendOne(next.item).finally(() => {
        unsettled.delete(next.item.id);
        busyLanes.delete(next.lane);
        inFlight.delete(sending);
      });
      inFlight.add(sending);
    }
    // Nothing in flight and nothing startable: the rest waits on what this round cannot send.
    if (inFlight.size === 0) break;
    await Promise.race(inFlight);
  }
  if (report.offline) {
    // What this round would have sent next was not tried: it did not go either, and the screen
    // that is waiting for it (a submit modal) must say so now, not after the next backoff. Its
    // attempts and backoff stay as they were: it was never sent.
    const at = now();
    for (const item of [...lanes.values()].flat()) {
      await deps.store.update(item.id, (current) => ({
        ...current,
        lastError: { kind: "network", message: NOT_SENT_OFFLINE, at },
      }));
    }
  }
  return report;
}

/** The error of an item for a provisional participant whose enrolment is on no device's outbox. */
export const PARTICIPANT_NEVER_ENROLLED =
  "Not sent: the participant it was recorded for was never enrolled from this device";

/** The error of an enrolment whose 2xx answer did not name the participant it sent. */
export const ENROLMENT_ANSWER_UNREADABLE = "The server's answer did not name the enrolled participant";

/** The error an item gets when a network error ended its round before its turn. */
export const NOT_SENT_OFFLINE = "Not sent: the connection was lost before its turn";

/** The code of an error body ({ message, code }), if it has one. */
function errorCodeOf(body: unknown): string | undefined {
  const code = body && typeof body === "object" ? (body as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** Items about one participant keep their order; so do a user's items about no participant. */
function laneOf(item: OutboxItem) {
  return item.participantId === undefined ? `user:${item.userId}` : `participant:${item.participantId}`;
}

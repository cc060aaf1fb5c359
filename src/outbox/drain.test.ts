import { describe, expect, it, vi } from "vitest";
import type { SendOutcome } from "./send-item.ts";
import { RETRY_BASE_MS } from "./backoff.ts";
import {
  ENROLMENT_ANSWER_UNREADABLE,
  NOT_SENT_OFFLINE,
  PARTICIPANT_NEVER_ENROLLED,
  drainOutbox,
  type DrainDependencies,
} from "./drain.ts";
import { memoryParticipantIds } from "./provisional-participants.ts";
import { eventsWrite, makeOutboxItem, uploadWrite } from "./enqueue.ts";
import type { OutboxItem } from "./outbox-item.ts";
import type { OutboxStore } from "./outbox-store.ts";
import type { SessionToken, SessionTokens } from "./session-tokens.ts";
import { revocationItem } from "./session-revocation.ts";

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const FAR_FUTURE_S = NOW / 1000 + 3600;
const ALICE = { userId: 1, username: "alice@demo.test" };
const BOB = { userId: 2, username: "bob@demo.test" };

/** An outbox of plain memory, with the same contract as the IndexedDB store. */
function memoryOutbox(items: OutboxItem[]) {
  const records = new Map(items.map((item) => [item.id, structuredClone(item)]));
  const store: OutboxStore = {
    list: async () => [...records.values()].sort((a, b) => a.createdAt - b.createdAt),
    get: async (id) => records.get(id),
    update: async (id, change) => {
      const item = records.get(id);
      if (item) records.set(id, change(item));
    },
    remove: async (id) => {
      records.delete(id);
    },
  };
  return { store, records };
}

function memoryTokens(tokens: Record<number, SessionToken>) {
  const sessions = new Map(Object.entries(tokens).map(([id, token]) => [Number(id), { ...token }]));
  const api: SessionTokens = {
    get: async (userId) => sessions.get(userId),
    markRejected: async (userId, token) => {
      const current = sessions.get(userId);
      if (current?.token === token) sessions.set(userId, { ...current, rejected: true });
    },
  };
  return { api, sessions };
}

const answered = (status: number, message = "answer"): SendOutcome => ({
  kind: "answered",
  status,
  message,
  body: {},
});
const offline: SendOutcome = { kind: "network", message: "Failed to fetch" };

function event(context = ALICE, createdAt = NOW - 1000, label = "seen") {
  return makeOutboxItem(eventsWrite([{ type: "seen" }], label), context, createdAt);
}

function setup(items: OutboxItem[], answer: (item: OutboxItem, token: string) => SendOutcome) {
  const outbox = memoryOutbox(items);
  const tokens = memoryTokens({
    [ALICE.userId]: { token: "alice-token", exp: FAR_FUTURE_S },
    [BOB.userId]: { token: "bob-token", exp: FAR_FUTURE_S },
  });
  const sent: { id: string; token: string }[] = [];
  const delivered: string[] = [];
  const deps: DrainDependencies = {
    store: outbox.store,
    tokens: tokens.api,
    send: vi.fn(async (item: OutboxItem, token: string) => {
      sent.push({ id: item.id, token });
      return answer(item, token);
    }),
    now: () => NOW,
    random: () => 0.5,
    onDelivered: async (item) => {
      delivered.push(item.id);
    },
  };
  return { deps, outbox, tokens, sent, delivered };
}

describe("draining the outbox", () => {
  it("removes an item only after a 2xx answer", async () => {
    const item = event();
    const { deps, outbox, delivered } = setup([item], () => answered(200));
    const report = await drainOutbox(deps);
    expect(report.delivered).toEqual([item.id]);
    expect(outbox.records.size).toBe(0);
    expect(delivered).toEqual([item.id]);
  });

  it("sends oldest first", async () => {
    const newer = event(ALICE, NOW - 10, "newer");
    const older = event(ALICE, NOW - 20, "older");
    const { deps, sent } = setup([newer, older], () => answered(200));
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([older.id, newer.id]);
  });

  it("sends each item with the token of the user who made it", async () => {
    const alices = event(ALICE, NOW - 20);
    const bobs = event(BOB, NOW - 10);
    const { deps, sent } = setup([alices, bobs], () => answered(200));
    await drainOutbox(deps);
    expect(sent).toEqual([
      { id: alices.id, token: "alice-token" },
      { id: bobs.id, token: "bob-token" },
    ]);
  });

  it.each([500, 502, 503, 408, 429])(
    "keeps the item and retries later when the server answers %i",
    async (status) => {
      const item = event();
      const { deps, outbox } = setup([item], () => answered(status, "busy"));
      const report = await drainOutbox(deps);
      const kept = outbox.records.get(item.id)!;
      expect(report.retrying).toEqual([item.id]);
      expect(kept.state).toBe("pending");
      expect(kept.attempts).toBe(1);
      expect(kept.lastError).toMatchObject({ kind: "http", status, message: "busy" });
      // 2 s doubling with equal jitter: the first wait is 1 to 2 s.
      expect(kept.nextAttemptAt - NOW).toBe(RETRY_BASE_MS * 0.75);
      expect(report.nextDueAt).toBe(kept.nextAttemptAt);
    },
  );

  it("keeps the item, records a network error and ends the round when there is no network", async () => {
    const first = event(ALICE, NOW - 20);
    const second = event(ALICE, NOW - 10);
    const { deps, outbox, sent } = setup([first, second], () => offline);
    const report = await drainOutbox(deps);
    expect(report.offline).toBe(true);
    expect(sent).toHaveLength(1);
    expect(outbox.records.get(first.id)!.lastError).toMatchObject({ kind: "network" });
    expect(outbox.records.get(second.id)!.attempts).toBe(0);
  });

  it("tells the items of the round a network error kept from being tried, without counting an attempt", async () => {
    // A submission queued behind an event of the same participant: the event's network error
    // ends the round, and the submission's screen must learn that it did not go either.
    const first = event(ALICE, NOW - 20);
    const second = event(ALICE, NOW - 10);
    const { deps, outbox } = setup([first, second], () => offline);
    await drainOutbox(deps);
    const kept = outbox.records.get(second.id)!;
    expect(kept.lastError).toMatchObject({ kind: "network", message: NOT_SENT_OFFLINE });
    expect(kept).toMatchObject({ attempts: 0, nextAttemptAt: second.nextAttemptAt });
  });

  it.each([400, 403, 404, 409, 413, 415, 422])(
    "marks the item failed, keeps it and does not retry it blindly on %i",
    async (status) => {
      const item = event();
      const { deps, outbox, sent } = setup([item], () => answered(status, "refused"));
      const report = await drainOutbox(deps);
      expect(report.refused).toEqual([item.id]);
      expect(outbox.records.get(item.id)).toMatchObject({
        state: "failed",
        lastError: { status, message: "refused" },
      });
      await drainOutbox(deps);
      await drainOutbox(deps, { ignoreBackoff: true });
      expect(sent).toHaveLength(1);
    },
  );

  it("stops sending a user's items on 401 and waits for them to sign in again, never deleting them", async () => {
    const first = event(ALICE, NOW - 30);
    const second = event(ALICE, NOW - 20);
    const bobs = event(BOB, NOW - 10);
    const { deps, outbox, tokens, sent } = setup([first, second, bobs], (_item, token) =>
      token === "alice-token" ? answered(401) : answered(200),
    );
    const report = await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([first.id, bobs.id]);
    expect(report.waitingForSignIn).toEqual([first.id, second.id]);
    expect(outbox.records.has(first.id) && outbox.records.has(second.id)).toBe(true);
    expect(tokens.sessions.get(ALICE.userId)?.rejected).toBe(true);

    // Nothing goes with the rejected token...
    await drainOutbox(deps);
    expect(sent).toHaveLength(2);
    // ...until Alice signs in again.
    tokens.sessions.set(ALICE.userId, { token: "alice-new-token", exp: FAR_FUTURE_S });
    deps.send = vi.fn(async () => answered(200));
    const after = await drainOutbox(deps);
    expect(after.delivered).toEqual([first.id, second.id]);
  });

  it("does not send the items of a user who signed out, and keeps them", async () => {
    const item = event(ALICE);
    const { deps, tokens, outbox, sent } = setup([item], () => answered(200));
    tokens.sessions.delete(ALICE.userId);
    const report = await drainOutbox(deps);
    expect(sent).toHaveLength(0);
    expect(report.waitingForSignIn).toEqual([item.id]);
    expect(outbox.records.has(item.id)).toBe(true);
  });

  it("does not send with an expired token", async () => {
    const item = event(ALICE);
    const { deps, tokens, sent } = setup([item], () => answered(200));
    tokens.sessions.set(ALICE.userId, { token: "old", exp: NOW / 1000 - 1 });
    await drainOutbox(deps);
    expect(sent).toHaveLength(0);
  });

  it("never drops an item for its age", async () => {
    const ancient = event(ALICE, NOW - 400 * 24 * 60 * 60 * 1000);
    const { deps, sent } = setup([ancient], () => answered(200));
    const report = await drainOutbox(deps);
    expect(sent).toHaveLength(1);
    expect(report.delivered).toEqual([ancient.id]);
  });

  it("leaves an item in backoff alone until it is due, unless told to ignore the backoff", async () => {
    const item = { ...event(), attempts: 2, nextAttemptAt: NOW + 30_000 };
    const { deps, sent } = setup([item], () => answered(200));
    const waiting = await drainOutbox(deps);
    expect(sent).toHaveLength(0);
    expect(waiting.nextDueAt).toBe(NOW + 30_000);
    await drainOutbox(deps, { ignoreBackoff: true });
    expect(sent).toHaveLength(1);
  });

  it("doubles the wait after each failure, up to five minutes", async () => {
    const item = event();
    const { deps, outbox } = setup([item], () => answered(503));
    const waits: number[] = [];
    for (let round = 0; round < 10; round++) {
      await drainOutbox(deps, { ignoreBackoff: true });
      waits.push(outbox.records.get(item.id)!.nextAttemptAt - NOW);
    }
    expect(waits.slice(0, 4)).toEqual([1500, 3000, 6000, 12000]);
    expect(Math.max(...waits)).toBe(225_000);
  });
});

describe("dependencies: a submission waits for its uploads", () => {
  const uploadOf = (name: string, createdAt: number) =>
    makeOutboxItem(
      uploadWrite(
        { bytes: new TextEncoder().encode("x").buffer, type: "" },
        { file_name: name, module_name: "clinro", participant_id: 5 },
      ),
      ALICE,
      createdAt,
    );
  const submissionAfter = (uploads: OutboxItem[]) =>
    makeOutboxItem(
      {
        kind: "submission",
        label: "HAM-D 17",
        dependsOn: uploads.map((upload) => upload.id),
        request: { method: "POST", path: "/control/clinro/submission", body: { type: "json", value: [{}] } },
      },
      ALICE,
      NOW,
    );

  it("sends the uploads first and the submission after them in the same round", async () => {
    const photo1 = uploadOf("p1.jpeg", NOW - 30);
    const photo2 = uploadOf("p2.jpeg", NOW - 20);
    const submission = submissionAfter([photo1, photo2]);
    const { deps, sent, outbox } = setup([submission, photo1, photo2], () => answered(200));
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([photo1.id, photo2.id, submission.id]);
    expect(outbox.records.size).toBe(0);
  });

  it("holds the submission back while an upload has not gone through", async () => {
    const photo1 = uploadOf("p1.jpeg", NOW - 30);
    const photo2 = uploadOf("p2.jpeg", NOW - 20);
    const submission = submissionAfter([photo1, photo2]);
    const { deps, sent, outbox } = setup([photo1, photo2, submission], (item) =>
      item.id === photo2.id ? answered(503) : answered(200),
    );
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([photo1.id, photo2.id]);
    expect(outbox.records.has(submission.id)).toBe(true);
    expect(outbox.records.has(photo1.id)).toBe(false);

    // Retrying sends only the failed file, then the submission.
    deps.send = vi.fn(async (item: OutboxItem) => {
      sent.push({ id: item.id, token: "" });
      return answered(200);
    });
    await drainOutbox(deps, { ignoreBackoff: true });
    expect(sent.slice(2).map((entry) => entry.id)).toEqual([photo2.id, submission.id]);
  });

  it("holds the submission back while an upload is refused for good", async () => {
    const photo = uploadOf("p1.jpeg", NOW - 30);
    const submission = submissionAfter([photo]);
    const { deps, sent } = setup([photo, submission], () => answered(415));
    await drainOutbox(deps);
    await drainOutbox(deps, { ignoreBackoff: true });
    expect(sent.map((entry) => entry.id)).toEqual([photo.id]);
  });
});

describe("sending side by side", () => {
  const participant = (participantId: number) => ({ ...ALICE, studyId: 101, siteId: 1011, participantId });
  const PARTICIPANT_A = participant(1);
  const PARTICIPANT_B = participant(2);

  /** A send that answers only when the test says so, noting what is in flight. */
  function heldSends(setupDeps: DrainDependencies, sentIds: string[]) {
    const waiting = new Map<string, (outcome: SendOutcome) => void>();
    let inFlight = 0;
    let mostInFlight = 0;
    setupDeps.send = (item) => {
      sentIds.push(item.id);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      return new Promise<SendOutcome>((resolve) => {
        waiting.set(item.id, (outcome) => {
          inFlight--;
          resolve(outcome);
        });
      });
    };
    /** Waits until item is being sent, then answers it. */
    const answer = async (item: OutboxItem, outcome: SendOutcome = answered(200)) => {
      for (let turn = 0; !waiting.has(item.id); turn++) {
        if (turn > 1000) throw new Error(`${item.label} was never sent`);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const resolve = waiting.get(item.id)!;
      waiting.delete(item.id);
      resolve(outcome);
    };
    return { answer, inFlight: () => inFlight, mostInFlight: () => mostInFlight, waiting };
  }

  it("sends two participants' items side by side", async () => {
    const first = event(PARTICIPANT_A, NOW - 20, "a");
    const second = event(PARTICIPANT_B, NOW - 10, "b");
    const { deps } = setup([first, second], () => answered(200));
    const sentIds: string[] = [];
    const held = heldSends(deps, sentIds);
    const draining = drainOutbox(deps);
    // The second participant's item goes while the first one's answer is still awaited.
    await held.answer(second);
    await held.answer(first);
    const report = await draining;
    expect(held.mostInFlight()).toBe(2);
    expect(report.delivered).toEqual([second.id, first.id]);
  });

  it("keeps one participant's items in order", async () => {
    const items = [1, 2, 3].map((index) => event(PARTICIPANT_A, NOW - 100 + index, `a${index}`));
    const other = event(PARTICIPANT_B, NOW - 50, "b");
    const { deps } = setup([...items].reverse().concat(other), () => answered(200));
    const sentIds: string[] = [];
    const held = heldSends(deps, sentIds);
    const draining = drainOutbox(deps);
    for (const item of items) {
      await held.answer(item);
      // Only one of this participant's items is ever in flight.
      expect(
        [...held.waiting.keys()].filter((id) => items.some((own) => own.id === id)).length,
      ).toBeLessThanOrEqual(1);
    }
    await held.answer(other);
    await draining;
    expect(sentIds.filter((id) => id !== other.id)).toEqual(items.map((item) => item.id));
    expect(held.mostInFlight()).toBe(2);
  });

  it("sends a participant's later item even when an earlier one is retried later", async () => {
    const first = event(PARTICIPANT_A, NOW - 20, "a1");
    const second = event(PARTICIPANT_A, NOW - 10, "a2");
    const { deps, sent } = setup([first, second], (item) =>
      item.id === first.id ? answered(503) : answered(200),
    );
    const report = await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([first.id, second.id]);
    expect(report).toMatchObject({ retrying: [first.id], delivered: [second.id] });
  });

  it("waits for an upload before its submission, even in another lane", async () => {
    // The upload was made without a participant on the item: another lane than the submission.
    const upload = makeOutboxItem(
      uploadWrite(
        { bytes: new TextEncoder().encode("x").buffer, type: "" },
        { file_name: "p.jpeg", module_name: "clinro", participant_id: 1 },
      ),
      ALICE,
      NOW - 30,
    );
    const submission = makeOutboxItem(
      {
        kind: "submission",
        label: "HAM-D 17",
        dependsOn: [upload.id],
        request: { method: "POST", path: "/control/clinro/submission", body: { type: "json", value: [{}] } },
      },
      PARTICIPANT_A,
      NOW - 20,
    );
    const { deps } = setup([upload, submission], () => answered(200));
    const sentIds: string[] = [];
    const held = heldSends(deps, sentIds);
    const draining = drainOutbox(deps);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sentIds).toEqual([upload.id]);
    await held.answer(upload);
    await held.answer(submission);
    const report = await draining;
    expect(sentIds).toEqual([upload.id, submission.id]);
    expect(report.delivered).toEqual([upload.id, submission.id]);
  });

  it("sends at most four at a time, and one at a time when told", async () => {
    const items = Array.from({ length: 10 }, (_, index) =>
      event(participant(100 + index), NOW - 100 + index, `p${index}`),
    );
    for (const [concurrency, expected] of [
      [undefined, 4],
      [1, 1],
    ] as const) {
      const { deps } = setup(items, () => answered(200));
      if (concurrency !== undefined) deps.concurrency = concurrency;
      const sentIds: string[] = [];
      const held = heldSends(deps, sentIds);
      const draining = drainOutbox(deps);
      for (const item of items) await held.answer(item);
      const report = await draining;
      expect(held.mostInFlight()).toBe(expected);
      expect(report.delivered).toHaveLength(10);
    }
  });

  it("starts nothing more after a network error, and lets what is in flight finish", async () => {
    const items = Array.from({ length: 6 }, (_, index) =>
      event(participant(200 + index), NOW - 100 + index, `n${index}`),
    );
    const { deps, outbox } = setup(items, () => answered(200));
    const sentIds: string[] = [];
    const held = heldSends(deps, sentIds);
    const draining = drainOutbox(deps);
    await held.answer(items[0]!, offline);
    for (const item of items.slice(1, 4)) await held.answer(item);
    const report = await draining;
    expect(sentIds).toEqual(items.slice(0, 4).map((item) => item.id));
    expect(report.offline).toBe(true);
    expect(report.delivered).toEqual(items.slice(1, 4).map((item) => item.id));
    expect(outbox.records.has(items[4]!.id) && outbox.records.has(items[5]!.id)).toBe(true);
  });
});

describe("consent first: a rating queued after the consent it needs", () => {
  const AT_PARTICIPANT = { ...ALICE, studyId: 101, siteId: 1011, participantId: 7 };
  const consentRequired: SendOutcome = {
    kind: "answered",
    status: 409,
    message: "The participant's consent is awaiting participant",
    body: { message: "The participant's consent is awaiting participant", code: "consent_required" },
  };

  it("holds a rating the server refuses for a consent not yet complete, retrying it, never failing it", async () => {
    const rating = event(AT_PARTICIPANT, NOW - 10, "HAM-D 17");
    const { deps, outbox } = setup([rating], () => consentRequired);
    const report = await drainOutbox(deps);
    expect(report).toMatchObject({ retrying: [rating.id], refused: [] });
    const kept = outbox.records.get(rating.id)!;
    expect(kept.state).toBe("pending");
    expect(kept.lastError).toMatchObject({ status: 409, code: "consent_required" });
    expect(kept.nextAttemptAt).toBeGreaterThan(NOW);
  });

  it("fails any other 409 for good, as before", async () => {
    const item = event(AT_PARTICIPANT);
    const { deps, outbox } = setup([item], () => ({ ...answered(409), body: { code: "in_conflict" } }));
    await drainOutbox(deps);
    expect(outbox.records.get(item.id)!.state).toBe("failed");
  });

  it("delivers a consent signed offline before the rating queued after it, whose answer depends on it", async () => {
    const consent = event(AT_PARTICIPANT, NOW - 20, "Main consent");
    const rating = event(AT_PARTICIPANT, NOW - 10, "HAM-D 17");
    let consented = false;
    // The server as it behaves: the rating is taken only once the consent is stored.
    const { deps, sent } = setup([rating, consent], (item) => {
      if (item.id === consent.id) consented = true;
      return item.id === rating.id && !consented ? consentRequired : answered(200);
    });
    const report = await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([consent.id, rating.id]);
    expect(report.delivered).toEqual([consent.id, rating.id]);
  });

  it("sends the held rating again once the consent that failed to send has gone through", async () => {
    const consent = event(AT_PARTICIPANT, NOW - 20, "Main consent");
    const rating = event(AT_PARTICIPANT, NOW - 10, "HAM-D 17");
    let serverUp = false;
    let consented = false;
    const { deps, outbox } = setup([consent, rating], (item) => {
      if (item.id === consent.id) {
        if (!serverUp) return answered(503);
        consented = true;
        return answered(200);
      }
      return consented ? answered(201) : consentRequired;
    });
    const first = await drainOutbox(deps);
    expect(first.retrying).toEqual([consent.id, rating.id]);
    serverUp = true;
    const second = await drainOutbox(deps, { ignoreBackoff: true });
    expect(second.delivered).toEqual([consent.id, rating.id]);
    expect(outbox.records.size).toBe(0);
  });
});

describe("offline enrolment: writes for a participant the server does not know yet", () => {
  const PROVISIONAL = -4321;
  const SERVER_ID = 77;
  const CLIENT_ID = "6f1b6c4e-2a1c-4b8e-9d7e-1f2a3b4c5d6e";
  const at = { ...ALICE, studyId: 1, siteId: 2, participantId: PROVISIONAL };

  const enrolment = (createdAt = NOW - 100) =>
    makeOutboxItem(
      {
        kind: "enrolment",
        label: "S-1",
        request: {
          method: "POST",
          path: "/control/studies/1/sites/2/participants",
          body: { type: "json", value: { subject_id: "S-1", client_id: CLIENT_ID } },
        },
      },
      at,
      createdAt,
    );
  const photoFor = (waitsFor: OutboxItem, createdAt = NOW - 50) => ({
    ...makeOutboxItem(
      uploadWrite(
        { bytes: new ArrayBuffer(3), type: "image/jpeg" },
        {
          file_name: "p.jpeg",
          module_name: "clinro",
          participant_id: PROVISIONAL,
        },
      ),
      at,
      createdAt,
    ),
    dependsOn: [waitsFor.id],
  });
  const submissionFor = (waitsFor: OutboxItem[], createdAt = NOW - 40) =>
    makeOutboxItem(
      {
        kind: "submission",
        label: "HAM-D",
        dependsOn: waitsFor.map((item) => item.id),
        request: {
          method: "POST",
          path: `/control/clinro/participant/${PROVISIONAL}/instruments/5/submission`,
          body: { type: "json", value: [{ instance_id: "made-up", completed_by: 1 }] },
        },
      },
      at,
      createdAt,
    );
  const enrolled = (status = 201): SendOutcome => ({
    kind: "answered",
    status,
    message: "created",
    body: { id: SERVER_ID, client_id: CLIENT_ID },
  });

  it("sends the enrolment first, then its participant's writes rewritten with the server's id", async () => {
    const enrol = enrolment();
    const photo = photoFor(enrol);
    const submission = submissionFor([enrol, photo]);
    const ids = memoryParticipantIds();
    const seen: OutboxItem[] = [];
    const { deps, outbox } = setup([submission, photo, enrol], (item) =>
      item.kind === "enrolment" ? enrolled() : answered(201),
    );
    deps.participantIds = ids;
    deps.send = vi.fn(async (item: OutboxItem) => {
      seen.push(item);
      return item.kind === "enrolment" ? enrolled() : answered(201);
    });
    const report = await drainOutbox(deps);
    expect(seen.map((item) => item.id)).toEqual([enrol.id, photo.id, submission.id]);
    expect(report.delivered).toEqual([enrol.id, photo.id, submission.id]);
    expect(outbox.records.size).toBe(0);
    expect(ids.entries.get(PROVISIONAL)).toEqual({ participantId: SERVER_ID, clientId: CLIENT_ID });
    const [, sentPhoto, sentSubmission] = seen;
    expect(sentPhoto!.participantId).toBe(SERVER_ID);
    expect(sentPhoto!.request.body).toMatchObject({ fields: { participant_id: String(SERVER_ID) } });
    expect(sentSubmission!.request.path).toBe(
      `/control/clinro/participant/${SERVER_ID}/instruments/5/submission`,
    );
  });

  it("sends the enrolment first even when a write for the participant sorts before it (same millisecond)", async () => {
    const enrol = enrolment(NOW);
    const photo = photoFor(enrol, NOW);
    // Same createdAt: the store's order falls back to the ids, which may put the photo first.
    const { deps, sent, outbox } = setup([photo, enrol], (item) =>
      item.kind === "enrolment" ? enrolled() : answered(200),
    );
    deps.store.list = async () => [...outbox.records.values()].sort((a) => (a.id === photo.id ? -1 : 1));
    deps.participantIds = memoryParticipantIds();
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([enrol.id, photo.id]);
  });

  it("never sends a write holding a provisional id while the enrolment has not gone through", async () => {
    const enrol = enrolment();
    const submission = submissionFor([enrol]);
    const { deps, sent, outbox } = setup([enrol, submission], () => offline);
    deps.participantIds = memoryParticipantIds();
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([enrol.id]);
    expect(outbox.records.get(submission.id)!.request.path).toContain(String(PROVISIONAL));
  });

  it("keeps a refused enrolment and the writes waiting for it, and sends none of them", async () => {
    const enrol = enrolment();
    const photo = photoFor(enrol);
    const submission = submissionFor([enrol, photo]);
    const { deps, sent, outbox } = setup([enrol, photo, submission], () => answered(409, "subject id taken"));
    deps.participantIds = memoryParticipantIds();
    const report = await drainOutbox(deps);
    await drainOutbox(deps, { ignoreBackoff: true });
    expect(sent.map((entry) => entry.id)).toEqual([enrol.id]);
    expect(report.refused).toEqual([enrol.id]);
    expect(outbox.records.get(enrol.id)).toMatchObject({ state: "failed", lastError: { status: 409 } });
    expect(outbox.records.get(photo.id)!.state).toBe("pending");
    expect(outbox.records.get(submission.id)!.state).toBe("pending");
  });

  it("rewrites the waiting writes in the store before the enrolment leaves it", async () => {
    const enrol = enrolment();
    const submission = submissionFor([enrol]);
    const ids = memoryParticipantIds();
    const { deps, outbox } = setup([enrol, submission], (item) =>
      item.kind === "enrolment" ? enrolled() : answered(503),
    );
    deps.participantIds = ids;
    await drainOutbox(deps);
    expect(outbox.records.has(enrol.id)).toBe(false);
    const kept = outbox.records.get(submission.id)!;
    expect(kept.participantId).toBe(SERVER_ID);
    expect(kept.request.path).toBe(`/control/clinro/participant/${SERVER_ID}/instruments/5/submission`);
  });

  it("sends a write queued after the enrolment left the outbox with the id the map recorded", async () => {
    const submission = submissionFor([]);
    const { deps, sent } = setup([submission], () => answered(201));
    deps.participantIds = memoryParticipantIds({
      [PROVISIONAL]: { participantId: SERVER_ID, clientId: CLIENT_ID },
    });
    const paths: string[] = [];
    deps.send = vi.fn(async (item: OutboxItem, token: string) => {
      sent.push({ id: item.id, token });
      paths.push(item.request.path);
      return answered(201);
    });
    await drainOutbox(deps);
    expect(paths).toEqual([`/control/clinro/participant/${SERVER_ID}/instruments/5/submission`]);
  });

  it("fails, without sending, a write for a provisional participant no enrolment names", async () => {
    const submission = submissionFor([]);
    const { deps, sent, outbox } = setup([submission], () => answered(201));
    deps.participantIds = memoryParticipantIds();
    const report = await drainOutbox(deps);
    expect(sent).toEqual([]);
    expect(report.refused).toEqual([submission.id]);
    expect(outbox.records.get(submission.id)).toMatchObject({
      state: "failed",
      lastError: { message: PARTICIPANT_NEVER_ENROLLED },
    });
  });

  it("keeps an enrolment whose answer does not name the participant it sent", async () => {
    const enrol = enrolment();
    const { deps, outbox } = setup([enrol], () => answered(201));
    deps.participantIds = memoryParticipantIds();
    await drainOutbox(deps);
    expect(outbox.records.get(enrol.id)).toMatchObject({
      state: "failed",
      lastError: { message: ENROLMENT_ANSWER_UNREADABLE },
    });
  });

  it("sends a repeated enrolment with the same Idempotency-Key, and records the id the replay names", async () => {
    const enrol = enrolment();
    const submission = submissionFor([enrol]);
    const ids = memoryParticipantIds();
    let first = true;
    const { deps, sent } = setup([enrol, submission], (item) => {
      if (item.kind !== "enrolment") return answered(201);
      if (first) {
        first = false;
        return answered(503);
      }
      return enrolled(201);
    });
    deps.participantIds = ids;
    await drainOutbox(deps);
    await drainOutbox(deps, { ignoreBackoff: true });
    expect(sent.map((entry) => entry.id)).toEqual([enrol.id, enrol.id, submission.id]);
    expect(ids.entries.get(PROVISIONAL)?.participantId).toBe(SERVER_ID);
  });
});

describe("a sign-out queued in the outbox", () => {
  const SIGNED_OUT_TOKEN = "alice-old-token";
  const ended = {
    userId: ALICE.userId,
    username: ALICE.username,
    token: SIGNED_OUT_TOKEN,
    exp: FAR_FUTURE_S,
  };

  function refusalOf(session: { token: string; exp: number }, createdAt: number) {
    return makeOutboxItem(
      {
        kind: "signing-refusal",
        label: "refused",
        request: { method: "POST", path: "/refusals", body: { type: "json", value: {} } },
      },
      ALICE,
      createdAt,
      session,
    );
  }

  it("is sent with the token it ends, before anything else of its user, even an older item", async () => {
    const older = event(ALICE, NOW - 5000, "older");
    const revocation = revocationItem(ended, NOW - 1000);
    const bobs = event(BOB, NOW - 9000, "bob's");
    const { deps, sent, outbox } = setup([older, revocation, bobs], () => answered(204));
    await drainOutbox(deps);
    expect(sent[0]).toEqual({ id: revocation.id, token: SIGNED_OUT_TOKEN });
    expect(sent.slice(1)).toEqual(
      expect.arrayContaining([
        { id: older.id, token: "alice-token" },
        { id: bobs.id, token: "bob-token" },
      ]),
    );
    expect(outbox.records.size).toBe(0);
  });

  it("is sent although its user is signed out, whose other items keep waiting for their sign-in", async () => {
    const form = event(ALICE, NOW - 5000, "form");
    const revocation = revocationItem(ended, NOW - 1000);
    const { deps, sent, tokens, outbox } = setup([form, revocation], () => answered(204));
    tokens.sessions.delete(ALICE.userId);
    const report = await drainOutbox(deps);
    expect(sent).toEqual([{ id: revocation.id, token: SIGNED_OUT_TOKEN }]);
    expect(report.waitingForSignIn).toEqual([form.id]);
    expect([...outbox.records.keys()]).toEqual([form.id]);
  });

  it("holds its user's other items while it cannot be sent, and keeps all of them", async () => {
    const form = event(ALICE, NOW - 5000, "form");
    const revocation = revocationItem(ended, NOW - 1000);
    const bobs = event(BOB, NOW - 9000, "bob's");
    const { deps, sent, outbox } = setup([form, revocation, bobs], (item) =>
      item.kind === "revocation" ? answered(503) : answered(200),
    );
    await drainOutbox(deps);
    expect(sent.map((entry) => entry.id)).toEqual([revocation.id, bobs.id]);
    expect(outbox.records.get(revocation.id)?.nextAttemptAt).toBeGreaterThan(NOW);
    expect(outbox.records.has(form.id)).toBe(true);
  });

  it("sends nothing more when the device is offline, and keeps the revocation", async () => {
    const revocation = revocationItem(ended, NOW - 1000);
    const form = event(BOB, NOW - 9000);
    const { deps, sent, outbox } = setup([revocation, form], () => offline);
    const report = await drainOutbox(deps);
    expect(report.offline).toBe(true);
    expect(sent.map((entry) => entry.id)).toEqual([revocation.id]);
    expect(outbox.records.size).toBe(2);
  });

  it("is done when the server says the token no longer works (401)", async () => {
    const revocation = revocationItem(ended, NOW - 1000);
    const { deps, outbox, tokens } = setup([revocation], () => answered(401));
    const report = await drainOutbox(deps);
    expect(report.delivered).toEqual([revocation.id]);
    expect(outbox.records.size).toBe(0);
    expect(tokens.sessions.get(ALICE.userId)?.rejected).toBeUndefined();
  });

  it("is dropped unsent once its token has expired: nothing is left to end", async () => {
    const revocation = revocationItem({ ...ended, exp: NOW / 1000 - 1 }, NOW - 1000);
    const { deps, sent, outbox } = setup([revocation], () => answered(204));
    await drainOutbox(deps);
    expect(sent).toEqual([]);
    expect(outbox.records.size).toBe(0);
  });

  it("goes after the signing refusals of its session, sent with that session's token", async () => {
    const session = { token: SIGNED_OUT_TOKEN, exp: FAR_FUTURE_S };
    const first = refusalOf(session, NOW - 3000);
    const second = refusalOf(session, NOW - 2000);
    const revocation = revocationItem(ended, NOW - 1000);
    const { deps, sent, outbox } = setup([revocation, second, first], () => answered(200));
    await drainOutbox(deps);
    expect(sent).toEqual([
      { id: first.id, token: SIGNED_OUT_TOKEN },
      { id: second.id, token: SIGNED_OUT_TOKEN },
      { id: revocation.id, token: SIGNED_OUT_TOKEN },
    ]);
    expect(outbox.records.size).toBe(0);
  });

  it("sends a refusal whose session token was refused with its user's token afterwards, never dropping it", async () => {
    const refusal = refusalOf({ token: "spent", exp: FAR_FUTURE_S }, NOW - 3000);
    const { deps, sent, outbox } = setup([refusal], (_item, token) =>
      token === "spent" ? answered(401) : answered(200),
    );
    const first = await drainOutbox(deps);
    expect(first.waitingForSignIn).toEqual([refusal.id]);
    expect(outbox.records.get(refusal.id)?.session).toBeUndefined();
    await drainOutbox(deps);
    expect(sent).toEqual([
      { id: refusal.id, token: "spent" },
      { id: refusal.id, token: "alice-token" },
    ]);
    expect(outbox.records.size).toBe(0);
  });
});

import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { idempotencyKeys, participantEvents, participants } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const EVENTS = "/control/participants/me/events?platform=clinro";

describeOnEachDatabase("POST /control/participants/me/events with Idempotency-Key", (api) => {
  const participantOf = async (studyId: number, siteId: number) => {
    const [row] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, studyId), eq(participants.siteId, siteId)))
      // The first of each site: MDD-301 asks consent first, and the demo's first have consented.
      .orderBy(participants.id)
      .limit(1);
    return row!.id;
  };
  const countEvents = async (participantId: number) => {
    const [row] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(participantEvents)
      .where(eq(participantEvents.participantId, participantId));
    return row!.count;
  };
  /** Events name the participant's own study (another study is refused: a 403). */
  const eventsFor = (participant: number, type = "seen", studyId = 101) => [
    {
      type,
      timestamp: "2026-11-22T09:30:00.000+01:00",
      info: { instrument_id: 7, instance_id: "abc", study_id: studyId },
      study_id: studyId,
      participant,
    },
  ];

  it("stores the events of a request", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countEvents(participant);
    const response = await api.request("POST", EVENTS, {
      token,
      body: [...eventsFor(participant, "delivered"), ...eventsFor(participant, "visible")],
      headers: { "idempotency-key": randomUUID() },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: 2 });
    expect(await countEvents(participant)).toBe(before + 2);
    const [stored] = await api.db
      .select()
      .from(participantEvents)
      .where(and(eq(participantEvents.participantId, participant), eq(participantEvents.type, "visible")));
    expect(stored).toMatchObject({ studyId: 101, platform: "clinro", info: { instrument_id: 7 } });
    expect(stored!.occurredAt.toISOString()).toBe("2026-11-22T08:30:00.000Z");
  });

  it("stores one record when the same key is sent twice, and answers the second from the record", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1012);
    const before = await countEvents(participant);
    const key = randomUUID();
    const first = await api.request("POST", EVENTS, {
      token,
      body: eventsFor(participant),
      headers: { "idempotency-key": key },
    });
    const second = await api.request("POST", EVENTS, {
      token,
      body: eventsFor(participant),
      headers: { "idempotency-key": key },
    });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(first.headers["idempotent-replayed"]).toBe("false");
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(await countEvents(participant)).toBe(before + 1);
  });

  it("answers 422 to the same key with a different body, and writes nothing", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(102, 1021);
    const key = randomUUID();
    const first = await api.request("POST", EVENTS, {
      token,
      body: eventsFor(participant, "seen", 102),
      headers: { "idempotency-key": key },
    });
    expect(first.statusCode).toBe(200);
    const before = await countEvents(participant);
    const reused = await api.request("POST", EVENTS, {
      token,
      body: eventsFor(participant, "completed", 102),
      headers: { "idempotency-key": key },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: "idempotency_key_reused" });
    expect(await countEvents(participant)).toBe(before);
  });

  it("stores one record when requests with one key arrive at the same time", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(103, 1031);
    const before = await countEvents(participant);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.request("POST", EVENTS, {
          token,
          body: eventsFor(participant, "seen", 103),
          headers: { "idempotency-key": key },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === "false")).toHaveLength(1);
    expect(await countEvents(participant)).toBe(before + 1);
    const records = await api.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(records).toHaveLength(1);
  });

  it("keeps keys per user: another user's identical key is a request of its own", async () => {
    const coordinator = await api.signIn("coordinator@demo.test");
    const admin = await api.signIn("admin@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countEvents(participant);
    const key = randomUUID();
    for (const token of [coordinator, admin]) {
      const response = await api.request("POST", EVENTS, {
        token,
        body: eventsFor(participant),
        headers: { "idempotency-key": key },
      });
      expect(response.statusCode).toBe(200);
    }
    expect(await countEvents(participant)).toBe(before + 2);
  });

  it("writes each request without a key (callers outside the outbox)", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countEvents(participant);
    await api.request("POST", EVENTS, { token, body: eventsFor(participant) });
    await api.request("POST", EVENTS, { token, body: eventsFor(participant) });
    expect(await countEvents(participant)).toBe(before + 2);
  });

  it.each([
    ["an unknown event type", [{ type: "exploded", timestamp: "2026-11-22T09:30:00Z" }], "type"],
    ["a timestamp that is not ISO", [{ type: "seen", timestamp: "yesterday" }], "timestamp"],
    ["an empty list", [], ""],
    ["an object instead of a list", { type: "seen" }, ""],
  ])("answers 400 to %s and writes nothing", async (_what, body, field) => {
    const token = await api.signIn("coordinator@demo.test");
    const [before] = await api.db.select({ count: sql<number>`count(*)::int` }).from(participantEvents);
    const response = await api.request("POST", EVENTS, {
      token,
      body,
      headers: { "idempotency-key": randomUUID() },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
    const [after] = await api.db.select({ count: sql<number>`count(*)::int` }).from(participantEvents);
    expect(after!.count).toBe(before!.count);
  });

  it("answers 400 to a malformed Idempotency-Key", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await api.request("POST", EVENTS, {
      token,
      body: eventsFor(participant),
      headers: { "idempotency-key": "short" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "invalid_idempotency_key" });
  });

  it.each([
    { timestamp: "0000-01-01T00:00:00Z", why: "the year 0" },
    { timestamp: "0001-01-01T00:00:00+14:00", why: "the year 0 once in UTC" },
    { timestamp: "9999-12-31T23:59:59-12:00", why: "the year 10000 once in UTC" },
  ])(
    "answers 400 to a timestamp the database cannot hold ($why), and stores nothing",
    async ({ timestamp }) => {
      const token = await api.signIn("coordinator@demo.test");
      const participant = await participantOf(101, 1011);
      const before = await countEvents(participant);
      const response = await api.request("POST", EVENTS, {
        token,
        body: eventsFor(participant).map((event) => ({ ...event, timestamp })),
      });
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain("years 1 to 9999");
      expect(await countEvents(participant)).toBe(before);
    },
  );

  it("answers 400 to an info.study_id that cannot be a study id, and 403 to one not the participant's", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countEvents(participant);
    const withInfoStudy = (study_id: unknown) =>
      eventsFor(participant).map((event) => ({ ...event, info: { ...event.info, study_id } }));
    for (const bad of [" 101", "+101", "0101", 1.5]) {
      const response = await api.request("POST", EVENTS, { token, body: withInfoStudy(bad) });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // The coordinator holds study 103 too, but this participant is of study 101.
    expect((await api.request("POST", EVENTS, { token, body: withInfoStudy(103) })).statusCode).toBe(403);
    expect(await countEvents(participant)).toBe(before);
  });

  it("answers 400 without platform=clinro", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await api.request("POST", "/control/participants/me/events", {
      token,
      body: eventsFor(participant),
    });
    expect(response.statusCode).toBe(400);
  });

  it("answers 403 for a participant of a study the user has no permission for", async () => {
    // staff3 works in studies 101 and 103, not 102.
    const token = await api.signIn("staff3@demo.test");
    const participant = await participantOf(102, 1021);
    const before = await countEvents(participant);
    const response = await api.request("POST", EVENTS, { token, body: eventsFor(participant) });
    expect(response.statusCode).toBe(403);
    expect(await countEvents(participant)).toBe(before);
  });

  it("answers 401 without a token", async () => {
    const response = await api.request("POST", EVENTS, { body: eventsFor(1) });
    expect(response.statusCode).toBe(401);
  });
});

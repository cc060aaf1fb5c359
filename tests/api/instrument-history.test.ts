import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  PENDING_INSTRUMENTS_MAX,
  historyResponse,
  pendingInstrumentsResponse,
  submissionAnswersResponse,
} from "../../core/contracts/instrument-schemas.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const historyUrl = (participantId: number | string) =>
  `/control/participants/${participantId}/instrument_history/clinro`;
const pendingUrl = (studyId?: number | string) =>
  `/control/pending_instruments${studyId === undefined ? "" : `?study_id=${studyId}`}`;

describeOnEachDatabase("instrument history and pending instruments", (api) => {
  const ids = { hamd: 0, adverse: 0, announcement: 0, coordinator: 0, participant: 0, otherSite: 0 };
  const instances = { open: 0, persistent: 0, done: 0, expired: 0, future: 0, announcement: 0, otherSite: 0 };
  /** The persistent instance's start and expiration, as the pending list must answer them. */
  const persistentTimes = { start: new Date(0), expiration: new Date(0) };
  let tokens: Promise<{ coordinator: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());

  beforeAll(async () => {
    const instrumentId = async (slug: string) =>
      (
        await api.db
          .select({ id: instruments.id })
          .from(instruments)
          .where(and(eq(instruments.studyId, 101), eq(instruments.slug, slug)))
      )[0]!.id;
    ids.hamd = await instrumentId("ham-d-17");
    ids.adverse = await instrumentId("adverse-events-review");
    ids.announcement = await instrumentId("visit-schedule-update");
    ids.coordinator = (
      await api.db.select({ id: users.id }).from(users).where(eq(users.username, "coordinator@demo.test"))
    )[0]!.id;
    const participant = async (siteId: number) =>
      (
        await api.db
          .insert(participants)
          .values({ studyId: 101, siteId, fname: "Hista", lname: "Pending", subjectId: `HIST-${siteId}` })
          .returning({ id: participants.id })
      )[0]!.id;
    ids.participant = await participant(1011);
    ids.otherSite = await participant(1012);

    const now = Date.now();
    const instance = async (
      values: Omit<typeof instrumentInstances.$inferInsert, "participantId">,
      who = ids.participant,
    ) =>
      (
        await api.db
          .insert(instrumentInstances)
          .values({ ...values, participantId: who })
          .returning({ id: instrumentInstances.id })
      )[0]!.id;
    instances.open = await instance({
      instrumentId: ids.hamd,
      startDate: new Date(now - DAY_MS),
      expiration: new Date(now + 6 * DAY_MS),
    });
    // Expired long ago, but its schedule is persistent: still pending.
    persistentTimes.start = new Date(now - 400 * DAY_MS);
    persistentTimes.expiration = new Date(now - 390 * DAY_MS);
    instances.persistent = await instance({
      instrumentId: ids.adverse,
      startDate: persistentTimes.start,
      expiration: persistentTimes.expiration,
    });
    instances.done = await instance({
      instrumentId: ids.hamd,
      startDate: new Date(now - 30 * DAY_MS),
      completion: new Date(now - 29 * DAY_MS),
      whoCompleted: ids.coordinator,
    });
    instances.expired = await instance({
      instrumentId: ids.hamd,
      startDate: new Date(now - 20 * DAY_MS),
      expiration: new Date(now - 13 * DAY_MS),
    });
    instances.future = await instance({ instrumentId: ids.hamd, startDate: new Date(now + 2 * DAY_MS) });
    instances.announcement = await instance({
      instrumentId: ids.announcement,
      startDate: new Date(now - DAY_MS),
    });
    instances.otherSite = await instance(
      { instrumentId: ids.hamd, startDate: new Date(now - 399 * DAY_MS) },
      ids.otherSite,
    );
  });

  it("history: pending lists the open clinician instances, oldest first; completed is empty before a submission", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", historyUrl(ids.participant), { token: coordinator });
    expect(response.statusCode).toBe(200);
    const body = historyResponse.parse(response.json());
    expect(body.instruments.completed).toEqual([]);
    expect(body.instruments.pending).toEqual([
      expect.objectContaining({
        instrument_id: ids.adverse,
        name: "Adverse Events Review",
        instance_id: instances.persistent,
        url: `/studies/101/instruments/${ids.adverse}/adverse-events-review`,
      }),
      expect.objectContaining({
        instrument_id: ids.hamd,
        name: "HAM-D 17",
        instance_id: instances.open,
        permissions: ["16", "11", "12", "13"],
      }),
    ]);
  });

  it("history: a submission moves its instance from pending to completed, with the completer and scores", async () => {
    const { coordinator } = await signedIn();
    const definition = parseDefinitionOrThrow(
      definitionJsonOf(
        await api.request("GET", `/control/admin/studies/101/instruments/${ids.hamd}/ham-d-17`, {
          token: coordinator,
        }),
      ),
    );
    const answers = Object.fromEntries(
      definition.order.slice(1).map((id) => [id, [chosen(definition, id, "c1")]]),
    );
    const completion = new Date(Date.now() - 60_000);
    const payload = payloadFor(definition, answers, {
      user: { id: ids.coordinator, username: "coordinator@demo.test" },
      instrumentId: ids.hamd,
      completion,
    });
    const submitted = await api.request(
      "POST",
      `/control/clinro/participant/${ids.participant}/instruments/${ids.hamd}/submission`,
      { token: coordinator, body: [payload], headers: { "idempotency-key": randomUUID(), version: "010" } },
    );
    expect(submitted.statusCode).toBe(201);

    const staff1 = await api.signIn("staff1@demo.test");
    const body = historyResponse.parse(
      (await api.request("GET", historyUrl(ids.participant), { token: staff1 })).json(),
    );
    expect(body.instruments.completed).toEqual([
      {
        submission_id: (submitted.json() as { id: number }).id,
        instrument_id: ids.hamd,
        name: "HAM-D 17",
        instance_id: instances.open,
        completion: completion.toISOString(),
        completed_by: "Carmen Ortiz",
        version_number: 1,
        scores: [expect.objectContaining({ id: "total", final_value: 17 })],
      },
    ]);
    expect(body.instruments.pending.map((item) => item.instance_id)).toEqual([instances.persistent]);
  });

  it("one submission: read-only, with the history's facts and the answers as submitted", async () => {
    const staff1 = await api.signIn("staff1@demo.test");
    const history = historyResponse.parse(
      (await api.request("GET", historyUrl(ids.participant), { token: staff1 })).json(),
    );
    const [done] = history.instruments.completed;
    expect(done).toBeDefined();
    const response = await api.request("GET", `${historyUrl(ids.participant)}/${done!.submission_id}`, {
      token: staff1,
    });
    expect(response.statusCode).toBe(200);
    const body = submissionAnswersResponse.parse(response.json());
    const { answers, ...facts } = body;
    expect(facts).toEqual(done);
    // HAM-D 17: its introduction and 17 items, each item answered with its first anchor.
    expect(answers.length).toBeGreaterThanOrEqual(17);
    const answered = answers.filter((record) => record.state === "ANSWERED");
    expect(answered).toHaveLength(17);
    for (const record of answered) {
      expect(record.label).not.toBe("");
      expect(record.answer).toHaveLength(1);
      expect(record.answer[0]!.choice_id).toBe("c1");
    }

    // Another participant's id with this submission, an unknown submission: 404.
    const otherParticipant = await api.request("GET", `${historyUrl(ids.otherSite)}/${done!.submission_id}`, {
      token: staff1,
    });
    expect(otherParticipant.statusCode).toBe(404);
    expect(errorBody.parse(otherParticipant.json()).code).toBe("submission_not_found");
    expect(
      (await api.request("GET", `${historyUrl(ids.participant)}/999999`, { token: staff1 })).statusCode,
    ).toBe(404);
    // A participant the user may not see: 403, whether the submission exists or not.
    const { staff3 } = await signedIn();
    const [remote] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.studyId, 102))
      .limit(1);
    const refused = await api.request("GET", `${historyUrl(remote!.id)}/${done!.submission_id}`, {
      token: staff3,
    });
    expect(refused.statusCode).toBe(403);
    // Bad ids: 400 naming the field; no token: 401.
    const bad = await api.request("GET", `${historyUrl(ids.participant)}/abc`, { token: staff1 });
    expect(bad.statusCode).toBe(400);
    expect(errorBody.parse(bad.json()).message).toContain("submissionId");
    expect(
      (await api.request("GET", `${historyUrl(ids.participant)}/${done!.submission_id}`)).statusCode,
    ).toBe(401);
  });

  it("history: 403 for a participant of a study the user has no permission in", async () => {
    const { staff3 } = await signedIn();
    const [remote] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.studyId, 102))
      .limit(1);
    const response = await api.request("GET", historyUrl(remote!.id), { token: staff3 });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json()).code).toBe("participant_forbidden");
  });

  it("history: 400 naming the field for an id that is not a number, 401 without a token", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", historyUrl("abc"), { token: coordinator });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain("id");
    expect((await api.request("GET", historyUrl(ids.participant))).statusCode).toBe(401);
  });

  it("pending: open clinician instances across studies, oldest start first, capped", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", pendingUrl(), {
      token: coordinator,
      headers: { version: "3.4.0" },
    });
    expect(response.statusCode).toBe(200);
    const body = pendingInstrumentsResponse.parse(response.json());
    // The demo holds more open instances than the cap.
    expect(body.instruments).toHaveLength(PENDING_INSTRUMENTS_MAX);
    expect(body.truncated).toBe(true);
    const starts = body.instruments.map((item) => Date.parse(item.start_date));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(body.instruments[0]).toEqual({
      participant_id: ids.participant,
      subject_id: "HIST-1011",
      study_id: 101,
      site_id: 1011,
      instrument_id: ids.adverse,
      instance_id: instances.persistent,
      name: "Adverse Events Review",
      permissions: ["16", "11", "12", "13"],
      url: `/studies/101/instruments/${ids.adverse}/adverse-events-review`,
      start_date: persistentTimes.start.toISOString(),
      expiration: persistentTimes.expiration.toISOString(),
    });
    const listed = new Set(body.instruments.map((item) => item.instance_id));
    for (const hidden of [instances.done, instances.expired, instances.future, instances.announcement]) {
      expect(listed.has(hidden)).toBe(false);
    }
  });

  it("pending: ?study_id keeps one study", async () => {
    const { coordinator } = await signedIn();
    const body = pendingInstrumentsResponse.parse(
      (await api.request("GET", pendingUrl(102), { token: coordinator })).json(),
    );
    expect(body.instruments.length).toBeGreaterThan(0);
    expect(new Set(body.instruments.map((item) => item.study_id))).toEqual(new Set([102]));
    expect(body.instruments.every((item) => item.name !== "Visit schedule update")).toBe(true);
  });

  it("pending: only participants of sites in the user's permissions", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1012)));
    const token = await api.signIn(user.username, user.password);
    const body = pendingInstrumentsResponse.parse(
      (await api.request("GET", pendingUrl(101), { token })).json(),
    );
    expect(body.instruments.length).toBeGreaterThan(0);
    expect(body.instruments.every((item) => item.site_id === 1011)).toBe(true);
    expect(body.instruments.some((item) => item.instance_id === instances.otherSite)).toBe(false);
    const coordinatorBody = pendingInstrumentsResponse.parse(
      (await api.request("GET", pendingUrl(101), { token: (await signedIn()).coordinator })).json(),
    );
    expect(coordinatorBody.instruments.some((item) => item.instance_id === instances.otherSite)).toBe(true);
  });

  it("pending: 403 for a study_id the user has no permission in, 400 for one that is not a number", async () => {
    const { staff3 } = await signedIn();
    const forbidden = await api.request("GET", pendingUrl(102), { token: staff3 });
    expect(forbidden.statusCode).toBe(403);
    expect(errorBody.parse(forbidden.json()).code).toBe("study_forbidden");
    const invalid = await api.request("GET", pendingUrl("abc"), { token: staff3 });
    expect(invalid.statusCode).toBe(400);
    expect(errorBody.parse(invalid.json()).message).toContain("study_id");
  });
});

import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { formsListResponse, instancesListResponse } from "../../core/contracts/instrument-lists.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const formsUrl = (participantId: number | string, studyId?: number | string) =>
  `/control/clinro/participants/${participantId}/instruments` +
  (studyId === undefined ? "" : `?study_id=${studyId}`);
const instancesUrl = (participantId: number | string, studyId?: number | string) =>
  `/control/participants/${participantId}/instruments/instances` +
  (studyId === undefined ? "" : `?study_id=${studyId}`);

describeOnEachDatabase("the participant's instrument lists", (api) => {
  /** Made by this file, with values it knows. */
  const ids = { participant: 0, otherSite: 0, otherStudy: 0, scale: 0, locked: 0, coordinator: 0 };
  const instanceIds = { done: 0, open: 0, expired: 0, locked: 0 };
  let tokens: Promise<{ staff1: string; staff3: string; coordinator: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      staff1: await api.signIn("staff1@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
      coordinator: await api.signIn("coordinator@demo.test"),
    }))());

  beforeAll(async () => {
    const participant = async (values: typeof participants.$inferInsert) =>
      (await api.db.insert(participants).values(values).returning({ id: participants.id }))[0]!.id;
    ids.participant = await participant({ studyId: 101, siteId: 1011, fname: "Lista", lname: "Formsworth" });
    ids.otherSite = await participant({ studyId: 101, siteId: 1012, fname: "Lake", lname: "Lister" });
    ids.otherStudy = await participant({ studyId: 102, siteId: 1021, fname: "Remo", lname: "Lister" });
    const [coordinator] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    ids.coordinator = coordinator!.id;

    const instrument = async (values: typeof instruments.$inferInsert) =>
      (await api.db.insert(instruments).values(values).returning({ id: instruments.id }))[0]!.id;
    ids.scale = await instrument({
      studyId: 101,
      name: "Test Rating Scale",
      displayName: "TRS-9",
      instrumentType: "CLINRO",
      slug: "trs-9",
      visibleDays: 3,
      metadata: {
        display_name: "TRS-9",
        schedule: { recurring: { scheme: "persistent" } },
        visibility: "specific_time",
        visibilityRanges: [{ start: "9:00", end: "17:30" }],
      },
    });
    ids.locked = await instrument({
      studyId: 101,
      name: "Coordinator Only",
      displayName: "COORD-1",
      instrumentType: "CLINRO",
      slug: "coord-1",
      permissions: ["16"],
    });
    const instance = async (values: typeof instrumentInstances.$inferInsert) =>
      (await api.db.insert(instrumentInstances).values(values).returning({ id: instrumentInstances.id }))[0]!
        .id;
    instanceIds.done = await instance({
      instrumentId: ids.scale,
      participantId: ids.participant,
      startDate: new Date("2026-03-01T08:00:00.000Z"),
      expiration: new Date("2026-03-08T08:00:00.000Z"),
      completion: new Date("2026-03-02T10:15:00.000Z"),
      whoCompleted: ids.coordinator,
    });
    instanceIds.expired = await instance({
      instrumentId: ids.scale,
      participantId: ids.participant,
      startDate: new Date("2026-03-08T08:00:00.000Z"),
      expiration: new Date("2026-03-15T08:00:00.000Z"),
    });
    instanceIds.open = await instance({
      instrumentId: ids.scale,
      participantId: ids.participant,
      startDate: new Date("2026-03-15T08:00:00.000Z"),
    });
    instanceIds.locked = await instance({
      instrumentId: ids.locked,
      participantId: ids.participant,
      startDate: new Date("2026-03-16T08:00:00.000Z"),
    });
    // Another participant's instance never shows.
    await instance({
      instrumentId: ids.scale,
      participantId: ids.otherSite,
      startDate: new Date("2026-03-15T08:00:00.000Z"),
    });
  });

  it("forms list: one item per delivery with the spec's fields, completer's name and permissions", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", formsUrl(ids.participant, 101), { token: staff1 });
    expect(response.statusCode).toBe(200);
    const body = formsListResponse.parse(response.json());
    expect(body.instruments).toEqual([
      {
        name: "TRS-9",
        type: "CLINRO",
        instrument_id: ids.scale,
        instance_id: instanceIds.done,
        deployed: "2026-03-01T08:00:00.000Z",
        expiration: "2026-03-08T08:00:00.000Z",
        completed: "2026-03-02T10:15:00.000Z",
        completedBy: "Carmen Ortiz",
        permissions: ["16", "11", "12", "13"],
        url: `/studies/101/instruments/${ids.scale}/trs-9`,
      },
      expect.objectContaining({
        instance_id: instanceIds.expired,
        expiration: "2026-03-15T08:00:00.000Z",
        completed: null,
        completedBy: null,
      }),
      expect.objectContaining({ instance_id: instanceIds.open, expiration: null, completed: null }),
      expect.objectContaining({
        name: "COORD-1",
        instance_id: instanceIds.locked,
        permissions: ["16"],
        url: `/studies/101/instruments/${ids.locked}/coord-1`,
      }),
    ]);
  });

  it("forms list: study_id is optional", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", formsUrl(ids.participant), { token: staff1 });
    expect(response.statusCode).toBe(200);
    expect(formsListResponse.parse(response.json()).instruments).toHaveLength(4);
  });

  it("instances list: each instrument once, with its instances, metadata and visible_days", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", instancesUrl(ids.participant, 101), { token: staff1 });
    expect(response.statusCode).toBe(200);
    const body = instancesListResponse.parse(response.json());
    expect(body.instruments.map((instrument) => instrument.name)).toEqual(["COORD-1", "TRS-9"]);
    const [locked, scale] = body.instruments;
    expect(locked).toMatchObject({
      instrument_id: ids.locked,
      instrument_type: "CLINRO",
      permissions: ["16"],
      visible_days: 1,
      instances: [{ instance_id: instanceIds.locked, completion: null, who_completed: null }],
    });
    expect(scale).toEqual({
      instrument_id: ids.scale,
      name: "TRS-9",
      instrument_type: "CLINRO",
      permissions: ["16", "11", "12", "13"],
      visible_days: 3,
      metadata: {
        display_name: "TRS-9",
        schedule: { recurring: { scheme: "persistent" } },
        visibility: "specific_time",
        visibilityRanges: [{ start: "9:00", end: "17:30" }],
      },
      url: `/studies/101/instruments/${ids.scale}/trs-9`,
      instances: [
        {
          instance_id: instanceIds.done,
          start_date: "2026-03-01T08:00:00.000Z",
          expiration: "2026-03-08T08:00:00.000Z",
          completion: "2026-03-02T10:15:00.000Z",
          who_completed: ids.coordinator,
          who_completed_name: "Carmen Ortiz",
        },
        {
          instance_id: instanceIds.expired,
          start_date: "2026-03-08T08:00:00.000Z",
          expiration: "2026-03-15T08:00:00.000Z",
          completion: null,
          who_completed: null,
          who_completed_name: null,
        },
        {
          instance_id: instanceIds.open,
          start_date: "2026-03-15T08:00:00.000Z",
          expiration: null,
          completion: null,
          who_completed: null,
          who_completed_name: null,
        },
      ],
    });
  });

  it("instances list: study_id is required", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", instancesUrl(ids.participant), { token: staff1 });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).code).toBe("invalid_request");
  });

  it("the demo seed delivers HAM-D 17 and CGI-S, completed and coordinator-only forms, to a demo participant", async () => {
    const { coordinator } = await signedIn();
    const [seeded] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, 102), eq(participants.siteId, 1021)))
      .limit(1);
    const response = await api.request("GET", instancesUrl(seeded!.id, 102), { token: coordinator });
    expect(response.statusCode).toBe(200);
    const names = instancesListResponse.parse(response.json()).instruments.map((item) => item.name);
    expect(names).toEqual(expect.arrayContaining(["HAM-D 17", "CGI-S"]));
    const forms = await api.request("GET", formsUrl(seeded!.id, 102), { token: coordinator });
    const items = formsListResponse.parse(forms.json()).instruments;
    expect(items.some((item) => item.completed !== null && item.completedBy !== null)).toBe(true);
    expect(items.some((item) => item.permissions.join() === "16")).toBe(true);
  });

  const forbiddenAttempts = [
    ["a participant of a study the user has no permission in", "staff3", () => ids.otherStudy, 102],
    ["a participant asked for under another study_id", "staff1", () => ids.participant, 102],
    ["a participant asked for under a study the user lacks", "staff3", () => ids.participant, 103],
    ["a participant that does not exist", "staff1", () => 2_000_000_000, 101],
  ] as const;

  for (const [call, build] of [
    ["forms list", formsUrl],
    ["instances list", instancesUrl],
  ] as const) {
    it.each(forbiddenAttempts)(
      `${call}: 403 for %s, revealing nothing`,
      async (_case, who, participant, study) => {
        const tokensNow = await signedIn();
        const response = await api.request("GET", build(participant(), study), { token: tokensNow[who] });
        expect(response.statusCode).toBe(403);
        expect(errorBody.parse(response.json())).toMatchObject({ code: "participant_forbidden" });
      },
    );

    it(`${call}: 403 when the user's permissions name the study but not the participant's site`, async () => {
      const user = await api.createUser({ studies: { 101: "11" } });
      await api.db
        .delete(sitePermissions)
        .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1012)));
      const token = await api.signIn(user.username, user.password);
      expect((await api.request("GET", build(ids.participant, 101), { token })).statusCode).toBe(200);
      const response = await api.request("GET", build(ids.otherSite, 101), { token });
      expect(response.statusCode).toBe(403);
    });

    it(`${call}: 401 without a token`, async () => {
      const response = await api.request("GET", build(ids.participant, 101));
      expect(response.statusCode).toBe(401);
    });

    it(`${call}: 400 for a participant id that is not a number`, async () => {
      const { staff1 } = await signedIn();
      const response = await api.request("GET", build("abc", 101), { token: staff1 });
      expect(response.statusCode).toBe(400);
    });
  }
});

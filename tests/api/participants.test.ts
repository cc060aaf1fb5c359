import { and, eq, isNotNull } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { participantResponse } from "../../core/contracts/participant.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  studyPermissions,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const url = (studyId: number | string, siteId: number | string, participantId: number | string) =>
  `/control/studies/${studyId}/sites/${siteId}/participants/${participantId}`;

describeOnEachDatabase("GET /control/studies/:studyId/sites/:siteId/participants/:participantId", (api) => {
  /** Participants this file makes, with values it knows. */
  const ids = { full: 0, sparse: 0, otherSite: 0, otherStudy: 0 };
  let tokens: Promise<{ staff1: string; staff3: string; coordinator: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      staff1: await api.signIn("staff1@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
      coordinator: await api.signIn("coordinator@demo.test"),
    }))());

  beforeAll(async () => {
    const insert = async (values: typeof participants.$inferInsert) =>
      (await api.db.insert(participants).values(values).returning({ id: participants.id }))[0]!.id;
    ids.full = await insert({
      studyId: 101,
      siteId: 1011,
      fname: "Odalys",
      lname: "Quartermain",
      gender: "f",
      dateOfBirth: "1980-04-02",
      subjectId: "MDD-9001",
      email: "odalys@example.org",
      firstLoginTimestamp: new Date("2026-02-03T09:15:00.000Z"),
      lastUpdated: new Date("2026-03-04T10:20:30.000Z"),
    });
    ids.sparse = await insert({ studyId: 101, siteId: 1011, fname: "Ren", lname: "Sparse", gender: null });
    ids.otherSite = await insert({ studyId: 101, siteId: 1012, fname: "Lake", lname: "Side", gender: "m" });
    ids.otherStudy = await insert({
      studyId: 102,
      siteId: 1021,
      fname: "Remote",
      lname: "Person",
      gender: "o",
    });
  });

  it("answers the participant with every field of spec section 3", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", url(101, 1011, ids.full), { token: staff1 });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      id: ids.full,
      fname: "Odalys",
      lname: "Quartermain",
      gender: "f",
      date_of_birth: "1980-04-02",
      first_login_timestamp: "2026-02-03T09:15:00.000Z",
      last_updated: "2026-03-04T10:20:30.000Z",
      num_completed_instruments: 0,
      num_total_instruments: 0,
      study_name: "MDD-301 Depression Maintenance",
      subject_id: "MDD-9001",
      email: "odalys@example.org",
      // MDD-301 asks consent first; no consent was offered to this participant: nothing holds back.
      consents_holding_back: [],
    });
    participantResponse.parse(response.json());
  });

  it("counts the participant's clinician-rated deliveries and the completed ones", async () => {
    const { staff1 } = await signedIn();
    // Demo participant 1 is at site 1011 of study 101, with seeded deliveries.
    const deliveries = await api.db
      .select({ completion: instrumentInstances.completion })
      .from(instrumentInstances)
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .where(and(eq(instrumentInstances.participantId, 1), eq(instruments.instrumentType, "CLINRO")));
    const completed = await api.db
      .select({ id: instrumentInstances.id })
      .from(instrumentInstances)
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .where(
        and(
          eq(instrumentInstances.participantId, 1),
          eq(instruments.instrumentType, "CLINRO"),
          isNotNull(instrumentInstances.completion),
        ),
      );
    expect(deliveries.length).toBeGreaterThan(completed.length);
    expect(completed.length).toBeGreaterThan(0);
    const response = await api.request("GET", url(101, 1011, 1), { token: staff1 });
    expect(response.json()).toMatchObject({
      num_total_instruments: deliveries.length,
      num_completed_instruments: completed.length,
    });
  });

  it("answers gender null, a blank subject id and null dates for a participant without them", async () => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", url(101, 1011, ids.sparse), { token: staff1 });
    expect(response.statusCode).toBe(200);
    const participant = participantResponse.parse(response.json());
    expect(participant).toMatchObject({
      gender: null,
      subject_id: "",
      date_of_birth: null,
      first_login_timestamp: null,
      email: null,
    });
    expect(Number.isNaN(Date.parse(participant.last_updated))).toBe(false);
  });

  it("answers genders o and m as stored", async () => {
    const { coordinator } = await signedIn();
    const other = participantResponse.parse(
      (await api.request("GET", url(102, 1021, ids.otherStudy), { token: coordinator })).json(),
    );
    expect(other.gender).toBe("o");
    expect(other.study_name).toBe("SCZ-214 Negative Symptoms");
    const male = participantResponse.parse(
      (await api.request("GET", url(101, 1012, ids.otherSite), { token: coordinator })).json(),
    );
    expect(male.gender).toBe("m");
  });

  it("answers every seeded participant of a permitted site", async () => {
    const { coordinator } = await signedIn();
    const seeded = await api.db
      .select({ id: participants.id, siteId: participants.siteId, studyId: participants.studyId })
      .from(participants)
      .where(eq(participants.siteId, 1031));
    expect(seeded.length).toBeGreaterThan(0);
    for (const row of seeded.slice(0, 10)) {
      const response = await api.request("GET", url(row.studyId, row.siteId, row.id), { token: coordinator });
      expect(response.statusCode).toBe(200);
      expect(participantResponse.parse(response.json()).study_name).toBe("GAD-118 Anxiety Open-Label");
    }
  });

  it("answers 403 with one and the same body to every participant the user may not read, existing or not", async () => {
    const { staff1, staff3 } = await signedIn();
    const attempts = [
      // A participant of the other site of the URL's study.
      { token: staff1, path: url(101, 1011, ids.otherSite) },
      // A participant of another study, asked for under a permitted study and site.
      { token: staff1, path: url(101, 1011, ids.otherStudy) },
      // The right study and site of the participant, but staff3 has no permission in study 102.
      { token: staff3, path: url(102, 1021, ids.otherStudy) },
      // A site of another study in the URL.
      { token: staff1, path: url(101, 1021, ids.full) },
      { token: staff1, path: url(102, 1011, ids.full) },
      // Nothing there at all.
      { token: staff1, path: url(101, 1011, 2_000_000_000) },
      { token: staff1, path: url(999, 9999, ids.full) },
      { token: staff3, path: url(103, 1031, 2_000_000_000) },
    ];
    const bodies = new Set<string>();
    for (const attempt of attempts) {
      const response = await api.request("GET", attempt.path, { token: attempt.token });
      expect(response.statusCode, attempt.path).toBe(403);
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    const [body] = [...bodies];
    expect(errorBody.parse(JSON.parse(body!))).toEqual({
      message: "You do not have access to this participant.",
      code: "participant_forbidden",
    });
    expect(body).not.toMatch(/Quartermain|Remote|SCZ|Lake/);
  });

  it("answers 403 when the user's permissions name the study but not the participant's site", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1012)));
    const token = await api.signIn(user.username, user.password);
    expect((await api.request("GET", url(101, 1011, ids.full), { token })).statusCode).toBe(200);
    const response = await api.request("GET", url(101, 1012, ids.otherSite), { token });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json()).code).toBe("participant_forbidden");
  });

  it("answers 403 when the user's permissions name the site but not its study", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    await api.db
      .delete(studyPermissions)
      .where(and(eq(studyPermissions.userId, user.id), eq(studyPermissions.studyId, 101)));
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("GET", url(101, 1011, ids.full), { token });
    expect(response.statusCode).toBe(403);
  });

  it.each([
    ["studyId", url("abc", 1011, 1)],
    ["siteId", url(101, "0", 1)],
    ["participantId", url(101, 1011, "-3")],
    ["participantId", url(101, 1011, "1.5")],
    ["participantId", url(101, 1011, "99999999999")],
  ])("answers 400 naming %s for the path %s", async (field, path) => {
    const { staff1 } = await signedIn();
    const response = await api.request("GET", path, { token: staff1 });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain(field);
  });

  it("answers 401 before anything else when there is no token", async () => {
    for (const path of [url(101, 1011, ids.full), url(999, 1, 1), url("abc", 1, 1)]) {
      expect((await api.request("GET", path)).statusCode).toBe(401);
    }
  });

  // The participant is read while its session is checked, in one statement: what it found must
  // never reach a token that no longer holds, and such a token hears 401, not 403.
  it("answers 401 token_revoked, not the participant, once the token is signed out", async () => {
    const token = await api.signIn("staff1@demo.test");
    expect((await api.request("GET", url(101, 1011, ids.full), { token })).statusCode).toBe(200);
    expect((await api.request("POST", "/control/clinro/logout", { token })).statusCode).toBe(204);
    for (const path of [url(101, 1011, ids.full), url(102, 1021, ids.otherStudy), url(101, 1011, 99999)]) {
      const after = await api.request("GET", path, { token });
      expect(after.statusCode, path).toBe(401);
      expect(errorBody.parse(after.json()), path).toEqual({
        message: "Token has been signed out",
        code: "token_revoked",
      });
    }
  });

  it("answers 401 to the token of a user deactivated or whose password changed since", async () => {
    const token = await api.signIn("staff1@demo.test");
    const [user] = await api.db.select().from(users).where(eq(users.username, "staff1@demo.test"));
    try {
      await api.db
        .update(users)
        .set({ tokenVersion: user!.tokenVersion + 1 })
        .where(eq(users.id, user!.id));
      const changed = await api.request("GET", url(101, 1011, ids.full), { token });
      expect(changed.statusCode).toBe(401);
      expect(errorBody.parse(changed.json()).code).toBe("token_invalid");
      await api.db
        .update(users)
        .set({ tokenVersion: user!.tokenVersion, deactivatedAt: new Date() })
        .where(eq(users.id, user!.id));
      const deactivated = await api.request("GET", url(101, 1011, ids.full), { token });
      expect(deactivated.statusCode).toBe(401);
      expect(errorBody.parse(deactivated.json()).code).toBe("user_deactivated");
    } finally {
      await api.db
        .update(users)
        .set({ tokenVersion: user!.tokenVersion, deactivatedAt: null })
        .where(eq(users.id, user!.id));
    }
  });
});

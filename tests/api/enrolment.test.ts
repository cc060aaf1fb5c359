import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import {
  enrolParticipantResponse,
  participantImportRefusal,
  participantImportResponse,
} from "../../core/contracts/enrolment.ts";
import { consentParticipantsResponse } from "../../core/contracts/consent-schemas.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import { instancesListResponse } from "../../core/contracts/instrument-lists.ts";
import { participantSearchResponse } from "../../core/contracts/participant.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import {
  auditLog,
  consentParticipants,
  consents,
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  sites,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { rowCounts } from "../support/row-counts.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const enrolUrl = (studyId: number, siteId: number) =>
  `/control/studies/${studyId}/sites/${siteId}/participants`;
const importUrl = (studyId: number, siteId: number) => `${enrolUrl(studyId, siteId)}/import`;

let people = 0;
/** A new person to enrol, with a subject id no other test uses. */
const person = (overrides: Record<string, unknown> = {}) => ({
  subject_id: `ENR-${++people}-${randomUUID().slice(0, 6)}`,
  fname: "Noor",
  lname: `Enrolled${people}`,
  date_of_birth: "1984-07-21",
  gender: "f",
  email: `noor${people}@example.test`,
  client_id: randomUUID(),
  ...overrides,
});

const CSV_HEADER = "subject_id,first_name,last_name,date_of_birth,gender,email";

describeOnEachDatabase("enrolment: adding, editing and importing participants at a site", (api) => {
  let tokens: Promise<Record<"coordinator" | "staff1" | "witness" | "admin", string>> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff1: await api.signIn("staff1@demo.test"),
      witness: await api.signIn("witness@demo.test"),
      admin: await api.signIn("admin@demo.test"),
    }))());
  const enrol = async (
    token: string,
    body: unknown,
    {
      studyId = 101,
      siteId = 1011,
      key = randomUUID(),
    }: { studyId?: number; siteId?: number; key?: string } = {},
  ) => api.request("POST", enrolUrl(studyId, siteId), { token, body, headers: { "idempotency-key": key } });
  const expectBadField = (response: { statusCode: number; json: () => unknown }, field: string) => {
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.issues?.map((issue) => issue.path)).toContain(field);
    expect(body.message).toContain(field);
  };

  /** GAD-118 (103) given a schedule: an offset, a retired instrument, consents in every state. */
  const gad = { offsetInstrument: 0, retiredInstrument: 0, persistentInstrument: 0, consent: 0 };
  beforeAll(async () => {
    const clinician = await api.db
      .select({ id: instruments.id, metadata: instruments.metadata })
      .from(instruments)
      .where(and(eq(instruments.studyId, 103), eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician)))
      .orderBy(instruments.id);
    gad.offsetInstrument = clinician[0]!.id;
    gad.retiredInstrument = clinician[1]!.id;
    gad.persistentInstrument = clinician.find(
      (row) => row.metadata.schedule?.recurring?.scheme === "persistent",
    )!.id;
    await api.db
      .update(instruments)
      .set({ startOffsetDays: 3, visibleDays: 5 })
      .where(eq(instruments.id, gad.offsetInstrument));
    await api.db
      .update(instruments)
      .set({ retiredAt: new Date() })
      .where(eq(instruments.id, gad.retiredInstrument));
    const deployed = new Date(Date.now() - DAY_MS);
    const [current] = await api.db
      .insert(consents)
      .values({ studyId: 103, title: "GAD consent", version: 3, dateDeployed: deployed })
      .returning({ id: consents.id });
    gad.consent = current!.id;
    await api.db.insert(consents).values([
      {
        studyId: 103,
        title: "GAD retired consent",
        version: 1,
        dateDeployed: deployed,
        retiredAt: new Date(),
      },
      {
        studyId: 103,
        title: "GAD future consent",
        version: 1,
        dateDeployed: new Date(Date.now() + 30 * DAY_MS),
      },
    ]);
  });

  it("enrols a participant with the study's scheduled instruments and consents, found by search and the lists", async () => {
    const { coordinator } = await signedIn();
    const body = person({ fname: "Quillon", lname: "Verhoeven" });
    const before = Date.now();
    const response = await enrol(coordinator, body);
    expect(response.statusCode).toBe(201);
    const made = enrolParticipantResponse.parse(response.json());
    const clinicianInstruments = await api.db
      .select({ id: instruments.id })
      .from(instruments)
      .where(and(eq(instruments.studyId, 101), eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician)));
    expect(made).toMatchObject({
      subject_id: body.subject_id,
      fname: "Quillon",
      lname: "Verhoeven",
      date_of_birth: "1984-07-21",
      gender: "f",
      email: body.email,
      client_id: body.client_id,
      site_id: 1011,
      study_name: "MDD-301 Depression Maintenance",
      first_login_timestamp: null,
      num_completed_instruments: 0,
      num_total_instruments: clinicianInstruments.length,
    });

    // The search finds the new participant.
    const search = await api.request(
      "GET",
      `/control/studies/101/sites/1011/clinro_search?search_value=${encodeURIComponent("quillon verhoeven")}`,
      { token: coordinator },
    );
    expect(participantSearchResponse.parse(search.json()).response.map((row) => row.id)).toEqual([made.id]);

    // The instances list shows one open delivery of each clinician instrument, started at enrolment.
    const list = await api.request(
      "GET",
      `/control/participants/${made.id}/instruments/instances?study_id=101`,
      {
        token: coordinator,
      },
    );
    expect(list.statusCode).toBe(200);
    const listed = instancesListResponse
      .parse(list.json())
      .instruments.filter((instrument) => instrument.instrument_type === INSTRUMENT_TYPE.clinician);
    expect(listed.map((instrument) => instrument.instrument_id).sort()).toEqual(
      clinicianInstruments.map((row) => row.id).sort(),
    );
    for (const instrument of listed) {
      expect(instrument.instances).toHaveLength(1);
      const [instance] = instrument.instances;
      const start = Date.parse(instance!.start_date);
      expect(start).toBeGreaterThanOrEqual(before - 1000);
      expect(start).toBeLessThanOrEqual(Date.now());
      expect(instance!.completion).toBeNull();
      if (instrument.metadata.schedule?.recurring?.scheme === "persistent") {
        expect(instance!.expiration).toBeNull();
      } else {
        expect(Date.parse(instance!.expiration!) - start).toBe(instrument.visible_days * DAY_MS);
      }
    }

    // Each of MDD-301's consents awaits the participant, at its current version.
    const studyConsents = await api.db
      .select({ id: consents.id, version: consents.version })
      .from(consents)
      .where(eq(consents.studyId, 101));
    expect(studyConsents.length).toBeGreaterThan(0);
    for (const consent of studyConsents) {
      const answer = await api.request("GET", `/control/v2/clinro/me/consents/${consent.id}?site_id=1011`, {
        token: coordinator,
      });
      expect(answer.statusCode).toBe(200);
      const awaiting = consentParticipantsResponse
        .parse(answer.json())
        .groups.find((group) => group.status === "awaiting_participant");
      expect(awaiting?.participants.find((row) => row.id === made.id)).toMatchObject({
        consent_version: consent.version,
        subject_id: body.subject_id,
      });
    }

    // The participant's row was audited as the coordinator's insert.
    const [coordinatorRow] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const audited = await api.db
      .select({ actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.tableName, "participants"), eq(auditLog.action, "insert")));
    expect(audited.some((row) => row.actor === coordinatorRow!.id)).toBe(true);
  });

  it("gives deliveries by the schedule: the start offset, persistent ones never expire, retired ones none; only deployed, live consents", async () => {
    const { coordinator } = await signedIn();
    const before = Date.now();
    const response = await enrol(coordinator, person(), { studyId: 103, siteId: 1031 });
    expect(response.statusCode).toBe(201);
    const { id } = enrolParticipantResponse.parse(response.json());
    const rows = await api.db
      .select({
        instrumentId: instrumentInstances.instrumentId,
        start: instrumentInstances.startDate,
        expiration: instrumentInstances.expiration,
      })
      .from(instrumentInstances)
      .where(eq(instrumentInstances.participantId, id));
    const byInstrument = new Map(rows.map((row) => [row.instrumentId, row]));
    expect(byInstrument.has(gad.retiredInstrument)).toBe(false);
    const offset = byInstrument.get(gad.offsetInstrument)!;
    expect(offset.start.getTime()).toBeGreaterThanOrEqual(before + 3 * DAY_MS - 1000);
    expect(offset.start.getTime()).toBeLessThanOrEqual(Date.now() + 3 * DAY_MS);
    expect(offset.expiration!.getTime() - offset.start.getTime()).toBe(5 * DAY_MS);
    expect(byInstrument.get(gad.persistentInstrument)!.expiration).toBeNull();
    const live = await api.db
      .select({ id: instruments.id })
      .from(instruments)
      .where(
        and(
          eq(instruments.studyId, 103),
          eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
          isNull(instruments.retiredAt),
        ),
      );
    expect(rows).toHaveLength(live.length);
    const offers = await api.db
      .select({
        consentId: consentParticipants.consentId,
        version: consentParticipants.version,
        status: consentParticipants.status,
      })
      .from(consentParticipants)
      .where(eq(consentParticipants.participantId, id));
    expect(offers).toEqual([{ consentId: gad.consent, version: 3, status: "awaiting_participant" }]);
  });

  it("makes one participant of one client_id, whatever the key; the same key replays", async () => {
    const { coordinator } = await signedIn();
    const body = person();
    const first = await enrol(coordinator, body);
    expect(first.statusCode).toBe(201);
    const again = await enrol(coordinator, body);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    // The outbox's form changed meanwhile (a retyped name): still the participant already made.
    const changed = await enrol(coordinator, { ...body, fname: "Retyped" });
    expect(changed.statusCode).toBe(201);
    expect(changed.json()).toEqual(first.json());
    const key = randomUUID();
    const keyed = person();
    const one = await enrol(coordinator, keyed, { key });
    const replay = await enrol(coordinator, keyed, { key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(one.json());
    // The key again with another enrolment: the key's misuse, not a second participant.
    const reused = await enrol(coordinator, person(), { key });
    expect(reused.statusCode).toBe(422);
    expect(errorBody.parse(reused.json()).code).toBe("idempotency_key_reused");
    const made = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(inArray(participants.clientId, [body.client_id, keyed.client_id]));
    expect(made).toHaveLength(2);
    const instances = await api.db
      .select({ id: instrumentInstances.id })
      .from(instrumentInstances)
      .where(eq(instrumentInstances.participantId, enrolParticipantResponse.parse(first.json()).id));
    expect(instances.length).toBe(enrolParticipantResponse.parse(first.json()).num_total_instruments);
  });

  it("answers two sends of one enrolment at once with one participant", async () => {
    const { coordinator } = await signedIn();
    const body = person();
    const answers = await Promise.all([
      enrol(coordinator, body),
      enrol(coordinator, body),
      enrol(coordinator, body),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    const ids = new Set(answers.map((answer) => enrolParticipantResponse.parse(answer.json()).id));
    expect(ids.size).toBe(1);
    const made = await api.db.select().from(participants).where(eq(participants.clientId, body.client_id));
    expect(made).toHaveLength(1);
  });

  it("refuses a client_id that names a participant at another site (409), changing nothing", async () => {
    const { coordinator } = await signedIn();
    const body = person();
    expect((await enrol(coordinator, body)).statusCode).toBe(201);
    const before = await rowCounts(api.db);
    const elsewhere = await enrol(
      coordinator,
      { ...body, subject_id: `${body.subject_id}-B` },
      { siteId: 1012 },
    );
    expect(elsewhere.statusCode).toBe(409);
    expect(errorBody.parse(elsewhere.json()).code).toBe("client_id_taken");
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("refuses a subject id the study already has (409 naming subject_id), changing nothing", async () => {
    const { coordinator } = await signedIn();
    const body = person();
    expect((await enrol(coordinator, body)).statusCode).toBe(201);
    const before = await rowCounts(api.db);
    // At the study's other site too: subject ids are unique in the study.
    const taken = await enrol(coordinator, { ...person(), subject_id: body.subject_id }, { siteId: 1012 });
    expect(taken.statusCode).toBe(409);
    const refusal = errorBody.parse(taken.json());
    expect(refusal.code).toBe("subject_id_taken");
    expect(refusal.message).toContain(body.subject_id);
    expect(refusal.issues?.[0]?.path).toBe("subject_id");
    expect(await rowCounts(api.db)).toEqual(before);
    // Another study may use it.
    expect(
      (await enrol(coordinator, { ...person(), subject_id: body.subject_id }, { studyId: 103, siteId: 1031 }))
        .statusCode,
    ).toBe(201);
  });

  it("answers bad input with a 400 naming the field, changing nothing", async () => {
    const { coordinator } = await signedIn();
    const before = await rowCounts(api.db);
    const tomorrow = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ subject_id: "   " }, "subject_id"],
      [{ subject_id: "S".repeat(65) }, "subject_id"],
      [{ fname: "" }, "fname"],
      [{ lname: undefined }, "lname"],
      [{ date_of_birth: "21/07/1984" }, "date_of_birth"],
      [{ date_of_birth: "2023-02-30" }, "date_of_birth"],
      [{ date_of_birth: tomorrow }, "date_of_birth"],
      [{ date_of_birth: "1850-01-01" }, "date_of_birth"],
      [{ gender: "x" }, "gender"],
      [{ email: "not an email" }, "email"],
      [{ client_id: "device-1" }, "client_id"],
      [{ client_id: undefined }, "client_id"],
    ];
    for (const [change, field] of cases) {
      const response = await enrol(coordinator, person(change));
      expectBadField(response, field);
    }
    expect(await rowCounts(api.db)).toEqual(before);
    // None for gender and no email are fine.
    const sparse = await enrol(coordinator, person({ gender: null, email: undefined }));
    expect(sparse.statusCode).toBe(201);
    expect(enrolParticipantResponse.parse(sparse.json())).toMatchObject({ gender: null, email: null });
  });

  it("refuses (403) a clinician without a management role, a site the user lacks, a site of another study, an unknown site", async () => {
    const { coordinator, staff1 } = await signedIn();
    const enroller = await api.createUser({ studies: { 101: "11" } });
    await api.db.update(users).set({ role: "enroller" }).where(eq(users.id, enroller.id));
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, enroller.id), eq(sitePermissions.siteId, 1012)));
    const enrollerToken = await api.signIn(enroller.username, enroller.password);
    const before = await rowCounts(api.db);
    const refusals = [
      await enrol(staff1, person()),
      await enrol(enrollerToken, person(), { siteId: 1012 }),
      await enrol(coordinator, person(), { siteId: 1021 }),
      await enrol(coordinator, person(), { siteId: 999999 }),
      await enrol(coordinator, person(), { studyId: 999999, siteId: 1011 }),
    ];
    expect(refusals.map((response) => response.statusCode)).toEqual([403, 403, 403, 403, 403]);
    expect(errorBody.parse(refusals[0]!.json()).code).toBe("enrol_forbidden");
    expect(await rowCounts(api.db)).toEqual(before);
    // The enroller may at their own site; so may an administrator and the witness (an enroller).
    expect((await enrol(enrollerToken, person())).statusCode).toBe(201);
    const { admin, witness } = await signedIn();
    expect((await enrol(admin, person(), { studyId: 102, siteId: 1022 })).statusCode).toBe(201);
    expect((await enrol(witness, person())).statusCode).toBe(201);
  });

  it("refuses a retired site new participants (409)", async () => {
    const { coordinator } = await signedIn();
    const [coordinatorRow] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    await api.db
      .insert(sites)
      .values({ id: 1039, studyId: 103, label: "Closed Clinic", treeLevel: 4, retiredAt: new Date() });
    await api.db.insert(sitePermissions).values({ userId: coordinatorRow!.id, siteId: 1039 });
    const before = await rowCounts(api.db);
    const response = await enrol(coordinator, person(), { studyId: 103, siteId: 1039 });
    expect(response.statusCode).toBe(409);
    expect(errorBody.parse(response.json()).code).toBe("site_retired");
    const imported = await api.request("POST", importUrl(103, 1039), {
      token: coordinator,
      body: { csv: `${CSV_HEADER}\nRET-1,Ana,Lopez,1990-01-01,f,\n` },
    });
    expect(imported.statusCode).toBe(409);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("edits a participant's fields, keeping the subject id unique in the study", async () => {
    const { coordinator, staff1 } = await signedIn();
    const made = enrolParticipantResponse.parse((await enrol(coordinator, person())).json());
    const other = enrolParticipantResponse.parse(
      (await enrol(coordinator, person(), { siteId: 1012 })).json(),
    );
    const url = `${enrolUrl(101, 1011)}/${made.id}`;
    const fields = {
      subject_id: `${made.subject_id}-E`,
      fname: "Edited",
      lname: "Name",
      date_of_birth: "1990-12-31",
      gender: "o",
      email: null,
    };
    const edited = await api.request("PATCH", url, { token: coordinator, body: fields });
    expect(edited.statusCode).toBe(200);
    expect(enrolParticipantResponse.parse(edited.json())).toMatchObject({
      ...fields,
      id: made.id,
      client_id: made.client_id,
      num_total_instruments: made.num_total_instruments,
    });
    const [stored] = await api.db.select().from(participants).where(eq(participants.id, made.id));
    expect(stored).toMatchObject({ subjectId: fields.subject_id, fname: "Edited", gender: "o", email: null });
    const updates = await api.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.tableName, "participants"), eq(auditLog.action, "update")));
    expect(updates.length).toBeGreaterThan(0);

    const before = await rowCounts(api.db);
    const taken = await api.request("PATCH", url, {
      token: coordinator,
      body: { ...fields, subject_id: other.subject_id },
    });
    expect(taken.statusCode).toBe(409);
    expect(errorBody.parse(taken.json()).code).toBe("subject_id_taken");
    expectBadField(
      await api.request("PATCH", url, {
        token: coordinator,
        body: { ...fields, date_of_birth: "1990-02-29" },
      }),
      "date_of_birth",
    );
    expectBadField(
      await api.request("PATCH", url, { token: coordinator, body: { ...fields, fname: " " } }),
      "fname",
    );
    // Another site's participant through this site, a clinician without the role: refused.
    expect(
      (await api.request("PATCH", `${enrolUrl(101, 1011)}/${other.id}`, { token: coordinator, body: fields }))
        .statusCode,
    ).toBe(403);
    expect((await api.request("PATCH", url, { token: staff1, body: fields })).statusCode).toBe(403);
    expect(await rowCounts(api.db)).toEqual(before);
    // Its own subject id again is not a conflict.
    expect(
      (await api.request("PATCH", url, { token: coordinator, body: { ...fields, fname: "Again" } }))
        .statusCode,
    ).toBe(200);
  });

  it("imports a CSV: a dry run changes nothing; the commit creates every row with its schedule", async () => {
    const { coordinator } = await signedIn();
    const tag = randomUUID().slice(0, 6);
    // A byte-order mark, CRLF line ends, columns in another order, quoted fields, a blank line.
    const csv =
      "\uFEFFfirst_name,last_name,subject_id,date_of_birth,gender,email\r\n" +
      `Ana,"Lopez, Jr.",CSV-${tag}-1,1990-01-02,F,ana@example.test\r\n` +
      `\r\n` +
      `"Bo ""Bear""",Chen,CSV-${tag}-2,1975-11-30,,\r\n`;
    const before = await rowCounts(api.db);
    const dry = await api.request("POST", importUrl(101, 1012), {
      token: coordinator,
      body: { csv, dry_run: true },
    });
    expect(dry.statusCode).toBe(200);
    expect(participantImportResponse.parse(dry.json())).toEqual({
      dry_run: true,
      created: 2,
      participants: [
        { line: 2, subject_id: `CSV-${tag}-1`, fname: "Ana", lname: "Lopez, Jr.", id: null },
        { line: 4, subject_id: `CSV-${tag}-2`, fname: 'Bo "Bear"', lname: "Chen", id: null },
      ],
    });
    expect(await rowCounts(api.db)).toEqual(before);

    const done = await api.request("POST", importUrl(101, 1012), { token: coordinator, body: { csv } });
    expect(done.statusCode).toBe(200);
    const result = participantImportResponse.parse(done.json());
    expect(result).toMatchObject({ dry_run: false, created: 2 });
    const ids = result.participants.map((row) => row.id!);
    const stored = await api.db
      .select()
      .from(participants)
      .where(inArray(participants.id, ids))
      .orderBy(participants.id);
    expect(stored.map((row) => [row.subjectId, row.siteId, row.gender, row.email, row.dateOfBirth])).toEqual([
      [`CSV-${tag}-1`, 1012, "f", "ana@example.test", "1990-01-02"],
      [`CSV-${tag}-2`, 1012, null, null, "1975-11-30"],
    ]);
    const instances = await api.db
      .select({ id: instrumentInstances.id })
      .from(instrumentInstances)
      .where(inArray(instrumentInstances.participantId, ids));
    const liveClinician = await api.db
      .select({ id: instruments.id })
      .from(instruments)
      .where(and(eq(instruments.studyId, 101), eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician)));
    expect(instances).toHaveLength(2 * liveClinician.length);
    const offers = await api.db
      .select({ status: consentParticipants.status })
      .from(consentParticipants)
      .where(inArray(consentParticipants.participantId, ids));
    expect(offers.length).toBeGreaterThan(0);
    expect(new Set(offers.map((row) => row.status))).toEqual(new Set(["awaiting_participant"]));
    // The same file again: every row's subject id is taken now.
    const again = await api.request("POST", importUrl(101, 1012), { token: coordinator, body: { csv } });
    expect(again.statusCode).toBe(400);
    expect(participantImportRefusal.parse(again.json()).bad_rows?.map((row) => row.line)).toEqual([2, 4]);
  });

  it("refuses a CSV with bad rows whole, naming every bad row, on the dry run and the commit", async () => {
    const { coordinator } = await signedIn();
    const tag = randomUUID().slice(0, 6);
    const taken = enrolParticipantResponse.parse((await enrol(coordinator, person())).json()).subject_id;
    const csv = [
      CSV_HEADER,
      `OK-${tag}-1,Good,Row,1980-05-05,m,`,
      `OK-${tag}-2,,Nameless,1980-02-30,x,bad-email`,
      `OK-${tag}-1,Twice,Listed,1981-01-01,f,`,
      `${taken},Already,There,1970-01-01,o,`,
      `OK-${tag}-3,Good,Too,1999-09-09,F,good@example.test`,
    ].join("\n");
    const before = await rowCounts(api.db);
    for (const dry_run of [true, false]) {
      const response = await api.request("POST", importUrl(101, 1011), {
        token: coordinator,
        body: { csv, dry_run },
      });
      expect(response.statusCode).toBe(400);
      const refusal = participantImportRefusal.parse(response.json());
      expect(refusal.code).toBe("invalid_rows");
      expect(
        refusal.bad_rows?.map((row) => [
          row.line,
          row.subject_id,
          row.issues.map((issue) => issue.field).sort(),
        ]),
      ).toEqual([
        [3, `OK-${tag}-2`, ["date_of_birth", "email", "first_name", "gender"].sort()],
        [4, `OK-${tag}-1`, ["subject_id"]],
        [5, taken, ["subject_id"]],
      ]);
      expect(refusal.bad_rows?.[1]?.issues[0]?.message).toContain("line 2");
      expect(refusal.issues?.map((issue) => issue.path)).toContain("csv[3].first_name");
      expect(refusal.message).toContain("3, 4, 5");
    }
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("refuses a file it cannot read as a participant list, naming what is wrong", async () => {
    const { coordinator } = await signedIn();
    const before = await rowCounts(api.db);
    const cases: [string, RegExp][] = [
      ["subject_id,first_name,last_name,date_of_birth\nA,B,C,1990-01-01\n", /no column gender/],
      [`${CSV_HEADER},shoe_size\nA,B,C,1990-01-01,m,,42\n`, /Unknown column "shoe_size"/],
      [`${CSV_HEADER}\n`, /no participant rows/],
      [`${CSV_HEADER}\nA,"B,C,1990-01-01,m,\n`, /not readable as CSV/],
    ];
    for (const [csv, message] of cases) {
      const response = await api.request("POST", importUrl(101, 1011), { token: coordinator, body: { csv } });
      expect(response.statusCode).toBe(400);
      const refusal = participantImportRefusal.parse(response.json());
      expect(refusal.code).toBe("invalid_csv");
      expect(refusal.message).toMatch(message);
      expect(refusal.issues?.[0]?.path).toBe("csv");
    }
    expectBadField(
      await api.request("POST", importUrl(101, 1011), { token: coordinator, body: { csv: "" } }),
      "csv",
    );
    expectBadField(
      await api.request("POST", importUrl(101, 1011), {
        token: coordinator,
        body: { csv: "a", dry_run: "yes" },
      }),
      "dry_run",
    );
    const { staff1 } = await signedIn();
    const forbidden = await api.request("POST", importUrl(101, 1011), {
      token: staff1,
      body: { csv: `${CSV_HEADER}\nX-1,A,B,1990-01-01,m,\n` },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("imports with `clinro participant import`: a dry run, the commit, and bad rows named by line", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "clinro-participants-"));
    try {
      const run = async (args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(
          args,
          { out: (line) => out.push(line), err: (line) => err.push(line) },
          { database: api.handle },
        );
        return { code, out: out.join("\n"), err: err.join("\n") };
      };
      const tag = randomUUID().slice(0, 6);
      const good = path.join(folder, "good.csv");
      await writeFile(
        good,
        `${CSV_HEADER}\r\nCLI-${tag}-1,Ida,Moss,1966-06-06,f,\r\nCLI-${tag}-2,Jon,Moss,1968-08-08,m,\r\n`,
      );
      const before = await rowCounts(api.db);
      const dry = await run(["participant", "import", good, "--study", "103", "--site", "1031", "--dry-run"]);
      expect(dry).toMatchObject({ code: 0, err: "" });
      expect(dry.out).toContain(`line 2: CLI-${tag}-1 Ida Moss`);
      expect(dry.out).toContain("Dry run: 2 participants would be added");
      expect(await rowCounts(api.db)).toEqual(before);
      const done = await run(["participant", "import", good, "--study", "103", "--site", "1031"]);
      expect(done.code).toBe(0);
      expect(done.out).toContain("Added 2 participants at site 1031");
      const made = await api.db
        .select({ id: participants.id })
        .from(participants)
        .where(
          and(
            eq(participants.studyId, 103),
            inArray(participants.subjectId, [`CLI-${tag}-1`, `CLI-${tag}-2`]),
          ),
        );
      expect(made).toHaveLength(2);

      const bad = path.join(folder, "bad.csv");
      await writeFile(
        bad,
        `${CSV_HEADER}\nCLI-${tag}-3,Kai,Moss,1970-13-01,m,\nCLI-${tag}-1,Lee,Moss,1970-01-01,z,\n`,
      );
      const afterGood = await rowCounts(api.db);
      const refused = await run(["participant", "import", bad, "--study", "103", "--site", "1031"]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("Nothing was imported");
      expect(refused.err).toContain("line 2: date_of_birth");
      expect(refused.err).toContain("line 3: gender");
      expect(refused.err).toContain("line 3: subject_id");
      expect(await rowCounts(api.db)).toEqual(afterGood);

      expect((await run(["participant", "import", good, "--study", "103", "--site", "1011"])).code).toBe(1);
      const usage = await run(["participant", "import", good, "--study", "103"]);
      expect(usage.code).toBe(2);
      expect(usage.err).toContain("--site is required");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

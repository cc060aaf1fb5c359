/**
 * GET /control/studies/{studyId}/export: who may export (a user given the export right in the
 * study, and administrators; nobody else), the filters and the 400s that name them (nothing
 * recorded then), the audit row every export writes, and the answer's headers. The CSV's content
 * is checked in study-export-csv.test.ts; the sites an export holds, site by site, in
 * export-scope.test.ts.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import { EXPORT_FORMATS } from "../../core/contracts/study-export.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import {
  auditLog,
  consentSignings,
  instrumentSubmissions,
  participants,
  users,
} from "../../server/db/schema.ts";
import { STUDY_EXPORT_ACTION } from "../../server/study-export/export-audit.ts";
import { EXPORT_WRITERS } from "../../server/study-export/export-formats.ts";
import type { ExportConsentSigning, ExportSubmission } from "../../server/study-export/export-source.ts";
import { readExportSource } from "../../server/study-export/read-export-source.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import {
  everySelectOneAnswered,
  instrumentIdBySlug,
  newParticipant,
  servedDefinition,
  submitThroughApi,
  userIdOf,
} from "../support/submitted-study.ts";

const exportUrl = (studyId: number, query: string) => `/control/studies/${studyId}/export?${query}`;

type Rows = Record<string, string>[];

/** The zip's CSV files, read (the signature images beside them are not). */
function csvFiles(payload: Buffer): Map<string, Rows> {
  const files = unzipSync(new Uint8Array(payload));
  return new Map(
    Object.entries(files)
      .filter(([name]) => name.endsWith(".csv"))
      .map(([name, bytes]) => [
        name,
        parse(strFromU8(bytes), { columns: true, skip_empty_lines: true }) as Rows,
      ]),
  );
}

/** The submission rows of every instrument file (not the codebook, not the consents). */
function submissionRows(files: Map<string, Rows>): Rows {
  return [...files.entries()].filter(([name]) => /_v\d+\.csv$/.test(name)).flatMap(([, rows]) => rows);
}

describeOnEachDatabase("GET /control/studies/{studyId}/export", (api) => {
  const ids = { hamd: 0, cgis: 0, hamd102: 0, announcement: 0 };
  const tokens = {
    staff1: "",
    coordinator: "",
    admin: "",
    witness: "",
    siteCoordinator: "",
    otherStudyAdmin: "",
  };
  const userIds = { staff1: 0, coordinator: 0, admin: 0 };
  /** Submissions made here through the submission call. */
  const made = { all: [] as number[], lakeside: [] as number[], hamd: [] as number[], january: 0 };

  const exportsRecorded = async () =>
    (
      await api.db
        .select({ count: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
    )[0]!.count;

  beforeAll(async () => {
    ids.hamd = await instrumentIdBySlug(api, 101, "ham-d-17");
    ids.cgis = await instrumentIdBySlug(api, 101, "cgi-s");
    ids.hamd102 = await instrumentIdBySlug(api, 102, "ham-d-17");
    ids.announcement = await instrumentIdBySlug(api, 101, "visit-schedule-update");
    userIds.staff1 = await userIdOf(api, "staff1@demo.test");
    userIds.coordinator = await userIdOf(api, "coordinator@demo.test");
    userIds.admin = await userIdOf(api, "admin@demo.test");

    // A site coordinator whose management role is enroller: runs sites, exports nothing.
    const siteCoordinator = await api.createUser({ studies: { 101: ROLE_CODE.clinicalCoordinator } });
    await api.db.update(users).set({ role: "enroller" }).where(eq(users.id, siteCoordinator.id));
    // An administrator with a permission in SCZ-214 only: administrators manage every study.
    const otherStudyAdmin = await api.createUser({ studies: { 102: ROLE_CODE.clinicalCoordinator } });
    await api.db.update(users).set({ role: "administrator" }).where(eq(users.id, otherStudyAdmin.id));

    tokens.staff1 = await api.signIn("staff1@demo.test");
    tokens.coordinator = await api.signIn("coordinator@demo.test");
    tokens.admin = await api.signIn("admin@demo.test");
    tokens.witness = await api.signIn("witness@demo.test");
    tokens.siteCoordinator = await api.signIn(siteCoordinator.username);
    tokens.otherStudyAdmin = await api.signIn(otherStudyAdmin.username);

    // Two HAM-D 17 at Boston, one HAM-D and one CGI-S at Lakeside; one HAM-D received in January.
    const hamd = await servedDefinition(api, tokens.coordinator, ids.hamd, "ham-d-17");
    const cgis = await servedDefinition(api, tokens.coordinator, ids.cgis, "cgi-s");
    const participant = (siteId: number) =>
      newParticipant(api, { siteId, fname: "Exa", lname: "Port", subjectId: `EXP-${randomUUID()}` });
    const submit = async (participantId: number, instrumentId: number, form: SurveyDefinition) => {
      const id = await submitThroughApi(api, {
        token: tokens.coordinator,
        user: { id: userIds.coordinator, username: "coordinator@demo.test" },
        participantId,
        instrumentId,
        form,
        answers: everySelectOneAnswered(form, () => "c1"),
      });
      made.all.push(id);
      if (instrumentId === ids.hamd) made.hamd.push(id);
      return id;
    };
    const boston = await participant(1011);
    const lakeside = await participant(1012);
    made.january = await submit(boston, ids.hamd, hamd);
    await submit(boston, ids.hamd, hamd);
    made.lakeside.push(await submit(lakeside, ids.hamd, hamd), await submit(lakeside, ids.cgis, cgis));
    await api.db
      .update(instrumentSubmissions)
      .set({ createdAt: new Date("2026-01-15T10:00:00.000Z") })
      .where(eq(instrumentSubmissions.id, made.january));
  });

  it("lets the study manager given the export right and the administrator export, each export audited with who and what", async () => {
    for (const [who, token] of [
      ["coordinator", tokens.coordinator],
      ["admin", tokens.admin],
    ] as const) {
      const before = new Date(Date.now() - 1000);
      const response = await api.request("GET", exportUrl(101, "format=csv"), { token });
      expect(response.statusCode, who).toBe(200);
      expect(response.headers["content-type"]).toBe("application/zip");
      expect(response.headers["content-disposition"]).toBe(
        `attachment; filename="study-101-${new Date().toISOString().slice(0, 10)}.zip"`,
      );
      const [row] = await api.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
        .orderBy(sql`${auditLog.id} desc`)
        .limit(1);
      expect(row).toMatchObject({
        actorUserId: userIds[who],
        tableName: "studies",
        rowKey: { id: 101 },
        details: {
          via: "api",
          format: "csv",
          layout: null,
          site_ids: [1011, 1012],
          requested_site_ids: null,
          instrument_ids: null,
          from: null,
          to: null,
        },
      });
      expect(row!.at.getTime()).toBeGreaterThanOrEqual(before.getTime());
    }
  });

  it("refuses a researcher and a coordinator not given the export right, the witness and the signed out, recording no export", async () => {
    const before = await exportsRecorded();
    for (const token of [tokens.staff1, tokens.siteCoordinator, tokens.witness]) {
      const response = await api.request("GET", exportUrl(101, "format=csv"), { token });
      expect(response.statusCode).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("export_forbidden");
    }
    // An administrator manages every study, with a permission in it or not.
    expect(
      (await api.request("GET", exportUrl(101, "format=csv"), { token: tokens.otherStudyAdmin })).statusCode,
    ).toBe(200);
    expect((await api.request("GET", exportUrl(101, "format=csv"))).statusCode).toBe(401);
    // A study that does not exist answers as one the user does not hold, for anyone.
    for (const token of [tokens.admin, tokens.coordinator]) {
      const response = await api.request("GET", exportUrl(999, "format=csv"), { token });
      expect(response.statusCode).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("study_forbidden");
    }
    expect(await exportsRecorded()).toBe(before + 1);
  });

  it("refuses a site or an instrument outside the study with a 400 naming the field, and records nothing", async () => {
    const before = await exportsRecorded();
    const refused = async (query: string, field: string, text: RegExp) => {
      const response = await api.request("GET", exportUrl(101, query), { token: tokens.coordinator });
      expect(response.statusCode, query).toBe(400);
      const body = errorBody.parse(response.json());
      expect(
        body.issues?.map((issue) => issue.path),
        query,
      ).toContain(field);
      expect(body.message, query).toMatch(text);
    };
    await refused("format=csv&site_id=1021", "site_id", /1021 is not a site of study 101/);
    await refused("format=csv&site_id=1011,1021&site_id=1031", "site_id", /1021, 1031 are not sites/);
    await refused(
      `format=csv&instrument_id=${ids.hamd102}`,
      "instrument_id",
      /is not an instrument of study 101/,
    );
    await refused(`format=csv&instrument_id=${ids.announcement}`, "instrument_id", /collect data/);
    await refused("format=csv&site_id=abc", "site_id", /site_id must be ids/);
    await refused("format=csv&site_id=0", "site_id", /out of range/);
    await refused("format=xls", "format", /format must be one of csv, odm, fhir/);
    await refused("site_id=1011", "format", /format/);
    await refused("format=csv&from=2026-02-30", "from", /from must be a date of the calendar/);
    await refused("format=csv&to=yesterday", "to", /to must be a date/);
    await refused("format=csv&from=2026-11-02&to=2026-11-01", "to", /after from/);
    await refused("format=csv&layout=ndjson", "layout", /fhir only/);
    expect(await exportsRecorded()).toBe(before);
  });

  it("streams every registered format with its content type and file name, and answers one not registered with a 400 that says so", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const expected: Record<string, { type: string; extension: string }> = {
      "format=csv": { type: "application/zip", extension: "zip" },
      "format=odm": { type: "application/xml", extension: "xml" },
      "format=fhir": { type: "application/fhir+json", extension: "json" },
      "format=fhir&layout=bundle": { type: "application/fhir+json", extension: "json" },
      "format=fhir&layout=ndjson": { type: "application/fhir+ndjson", extension: "ndjson" },
    };
    for (const [query, { type, extension }] of Object.entries(expected)) {
      const format = new URLSearchParams(query).get("format") as (typeof EXPORT_FORMATS)[number];
      if (!EXPORT_WRITERS[format]) continue;
      const response = await api.request("GET", exportUrl(101, query), { token: tokens.coordinator });
      expect(response.statusCode, query).toBe(200);
      expect(response.headers["content-type"], query).toBe(type);
      expect(response.headers["content-disposition"], query).toBe(
        `attachment; filename="study-101-${today}.${extension}"`,
      );
      expect(response.rawPayload.length, query).toBeGreaterThan(0);
    }

    // Until a format's writer is registered, the call says so (and records nothing).
    const before = await exportsRecorded();
    for (const format of EXPORT_FORMATS) {
      const writer = EXPORT_WRITERS[format];
      delete EXPORT_WRITERS[format];
      try {
        const response = await api.request("GET", exportUrl(101, `format=${format}`), {
          token: tokens.coordinator,
        });
        expect(response.statusCode, format).toBe(400);
        const body = errorBody.parse(response.json());
        expect(body.message).toContain(`format ${format} is not available`);
        expect(body.issues?.[0]?.path).toBe("format");
      } finally {
        if (writer) EXPORT_WRITERS[format] = writer;
      }
    }
    expect(await exportsRecorded()).toBe(before);
  });

  it("narrows the rows to the sites, the instruments and the receipt times asked for", async () => {
    const rowsOf = async (query: string) => {
      const response = await api.request("GET", exportUrl(101, `format=csv${query}`), {
        token: tokens.coordinator,
      });
      expect(response.statusCode, query).toBe(200);
      return csvFiles(response.rawPayload);
    };
    const mine = (rows: Rows) => rows.filter((row) => made.all.includes(Number(row.submission_id)));

    const everything = await rowsOf("");
    expect(
      mine(submissionRows(everything))
        .map((row) => Number(row.submission_id))
        .sort(),
    ).toEqual([...made.all].sort());
    expect([...everything.keys()].some((name) => name.startsWith("visit-schedule-update"))).toBe(false);

    const lakeside = submissionRows(await rowsOf("&site_id=1012"));
    expect(lakeside.every((row) => row.site_id === "1012")).toBe(true);
    expect(
      mine(lakeside)
        .map((row) => Number(row.submission_id))
        .sort(),
    ).toEqual([...made.lakeside].sort());

    const hamdOnly = await rowsOf(`&instrument_id=${ids.hamd}`);
    expect([...hamdOnly.keys()].filter((name) => name.endsWith(".csv") && /_v\d+\.csv$/.test(name))).toEqual([
      "ham-d-17_v1.csv",
    ]);
    expect(
      mine(submissionRows(hamdOnly))
        .map((row) => Number(row.submission_id))
        .sort(),
    ).toEqual([...made.hamd].sort());
    const both = await rowsOf(`&instrument_id=${ids.hamd}&instrument_id=${ids.cgis},${ids.hamd}`);
    expect(mine(submissionRows(both))).toHaveLength(made.all.length);

    // Receipt times: one HAM-D was received on 15 January.
    const january = await rowsOf("&from=2026-01-15&to=2026-01-15");
    expect(submissionRows(january).map((row) => Number(row.submission_id))).toEqual([made.january]);
    expect(submissionRows(january)[0]!.server_received_at).toBe("2026-01-15T10:00:00.000Z");
    const later = submissionRows(await rowsOf("&from=2026-01-15T10:00:00.001Z"));
    expect(later.map((row) => Number(row.submission_id))).not.toContain(made.january);
    expect(mine(later)).toHaveLength(made.all.length - 1);
    const earlier = submissionRows(await rowsOf("&to=2026-01-15T10:00:00.001%2B00:00"));
    expect(earlier.map((row) => Number(row.submission_id))).toEqual([made.january]);

    const none = await rowsOf("&from=2000-01-01&to=2000-01-02");
    expect(submissionRows(none)).toHaveLength(0);
    expect(none.get("consents.csv")).toHaveLength(0);
    expect(none.get("ham-d-17_v1.csv")).toEqual([]);

    const [row] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(row!.details).toMatchObject({ from: "2000-01-01T00:00:00.000Z", to: "2000-01-03T00:00:00.000Z" });
    const [withFilters] = await api.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(
        and(eq(auditLog.action, STUDY_EXPORT_ACTION), sql`${auditLog.details} ->> 'site_ids' = '[1012]'`),
      );
    expect(withFilters!.details).toMatchObject({ site_ids: [1012], instrument_ids: null });
  });

  it("reads every row once across its pages, in the orders the writers rely on", async () => {
    // 250 more participants (participants are read 200 at a time) and 1,203 submissions
    // (submissions 500 at a time), made with SQL: the reader's pages are what is tested here.
    await api.db.execute(sql`
      insert into participants (study_id, site_id, fname, lname, subject_id)
      select 101, case when n % 2 = 0 then 1011 else 1012 end, 'Page', 'Person ' || n, 'PAGE-' || n
      from generate_series(1, 250) n`);
    await api.db.execute(sql`
      with people as (
        select id, (row_number() over (order by id) - 1)::int as n from participants where subject_id like 'PAGE-%'
      )
      insert into instrument_submissions
        (instrument_id, participant_id, client_instance_id, version_number, submitted_by, completed_at, payload, scores)
      select case when g % 3 = 0 then ${ids.cgis}::int else ${ids.hamd}::int end, p.id, 'page-' || g, 1, ${userIds.coordinator}::int,
             now(), jsonb_build_object('answers', '[]'::jsonb, 'start_time', '2026-11-27T08:00:00.000Z'), '[]'::jsonb
      from generate_series(0, 1202) g join people p on p.n = (g * 7) % 250`);
    const scope = { studyId: 101 };
    const source = await readExportSource(api.db, scope);
    const [{ count }] = (await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(instrumentSubmissions)
      .innerJoin(participants, eq(participants.id, instrumentSubmissions.participantId))
      .where(
        and(eq(participants.studyId, 101), sql`${instrumentSubmissions.instrumentId} <> ${ids.announcement}`),
      )) as [{ count: number }];
    expect(count).toBeGreaterThan(1203);

    const byForm: ExportSubmission[] = [];
    for await (const submission of source.submissions("by-form")) byForm.push(submission);
    expect(new Set(byForm.map((row) => row.id)).size).toBe(count);
    expect(byForm).toHaveLength(count);
    const versionOrder = source.instrumentVersions.map(
      (version) => `${version.instrumentId}/${version.versionNumber}`,
    );
    const position = (row: ExportSubmission) =>
      versionOrder.indexOf(`${row.instrumentId}/${row.versionNumber}`);
    for (const [index, row] of byForm.entries()) {
      if (index === 0) continue;
      const before = byForm[index - 1]!;
      expect(position(row)).toBeGreaterThanOrEqual(position(before));
      if (position(row) === position(before)) expect(row.id).toBeGreaterThan(before.id);
    }

    const byParticipant: ExportSubmission[] = [];
    for await (const submission of source.submissions("by-participant")) byParticipant.push(submission);
    expect(byParticipant.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      byForm.map((row) => row.id).sort((a, b) => a - b),
    );
    for (const [index, row] of byParticipant.entries()) {
      if (index === 0) continue;
      const before = byParticipant[index - 1]!;
      expect(row.participant.id).toBeGreaterThanOrEqual(before.participant.id);
      if (row.participant.id === before.participant.id) expect(row.id).toBeGreaterThan(before.id);
    }

    const signings: ExportConsentSigning[] = [];
    for await (const signing of source.consentSignings()) signings.push(signing);
    const stored = await api.db
      .select({ id: consentSignings.id })
      .from(consentSignings)
      .innerJoin(participants, eq(participants.id, consentSignings.participantId))
      .where(eq(participants.studyId, 101));
    expect(signings.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      stored.map((row) => row.id).sort((a, b) => a - b),
    );
    for (const [index, row] of signings.entries()) {
      if (index === 0) continue;
      const before = signings[index - 1]!;
      const key = (signing: ExportConsentSigning) => [signing.participant.id, signing.consentId, signing.id];
      const [a, b] = [key(before), key(row)];
      expect(a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!)))).toBe(
        true,
      );
    }
    expect(signings.some((signing) => signing.signatures.length > 0)).toBe(true);
    // Everyone named in the rows is among the users, and nobody else.
    const named = new Set([
      ...byForm.map((row) => row.completedBy),
      ...signings.map((row) => row.userId),
      ...signings.flatMap((row) => row.signatures.flatMap((signature) => signature.signerUserId ?? [])),
    ]);
    expect(new Set(source.users.map((user) => user.id))).toEqual(named);
  });
});

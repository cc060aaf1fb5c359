/**
 * What a study export holds and who may ask for it: exactly what the caller may read, site by
 * site, or a refusal. Exporting is a right given in a study (the staff calls' may_export), never
 * implied by the management role; an administrator manages every study and exports it whole;
 * the audit row names the sites actually exported.
 *
 * Run twice on each engine: on the demo (MDD-301, Boston and Lakeside), and on a site's own
 * study made on an empty database as a site does it: the first administrator from
 * `clinro admin create`, a two-site study from a study file, staff invited in the portal.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, desc, eq, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { errorBody } from "../../core/contracts/errors.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import { parseDefinitionOrThrow, definitionJsonOf } from "../support/submissions.ts";
import { auditLog, instruments } from "../../server/db/schema.ts";
import { STUDY_EXPORT_ACTION } from "../../server/study-export/export-audit.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { cliSucceeds, firstAdministrator, invited, type Person } from "../support/site-staff.ts";
import {
  everySelectOneAnswered,
  newParticipant,
  postSubmission,
  userIdOf,
} from "../support/submitted-study.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** One study with two sites, the people of the tests and a participant with a rating at each site. */
type Setting = {
  studyId: number;
  mySite: number;
  otherSite: number;
  /** The administrator who manages the study. */
  administrator: Person;
  /** Clinical Staff Level 1 at mySite only, management role left empty, given the export right. */
  exporter: Person;
  /** The same without the export right. */
  reader: Person;
  /** A participant rated at each site, with a subject id that appears nowhere else. */
  subject: { mine: string; other: string; otherParticipantId: number };
};

const exportUrl = (studyId: number, query: string) => `/control/studies/${studyId}/export?${query}`;

/** Every format and layout the export call offers. */
const FORMATS = ["format=csv", "format=odm", "format=fhir", "format=fhir&layout=ndjson"] as const;

/** The export's text: each file's name and CSV text of the zip, or the XML or FHIR document itself. */
function exportText(query: string, payload: Buffer): string {
  if (!query.startsWith("format=csv")) return payload.toString("utf8");
  return Object.entries(unzipSync(new Uint8Array(payload)))
    .map(([name, bytes]) => `${name}\n${name.endsWith(".csv") ? strFromU8(bytes) : ""}`)
    .join("\n");
}

/** The site ids of every CSV row that has one (submissions, consents, participants). */
function csvSiteIds(payload: Buffer): Set<string> {
  const ids = new Set<string>();
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(payload)))) {
    if (!name.endsWith(".csv")) continue;
    const rows = parse(strFromU8(bytes), { columns: true, skip_empty_lines: true }) as Record<
      string,
      string
    >[];
    for (const row of rows)
      if (row.site_id !== undefined && !name.startsWith("codebook")) ids.add(row.site_id);
  }
  return ids;
}

/** A participant at the site rated with the study's HAM-D 17 by the clinician. */
async function ratedParticipant(api: ApiHarness, rater: Person, studyId: number, siteId: number) {
  const subjectId = `XS-${randomUUID()}`;
  const participantId = await newParticipant(api, {
    studyId,
    siteId,
    fname: "Scope",
    lname: "Test",
    subjectId,
  });
  const [hamd] = await api.db
    .select({ id: instruments.id })
    .from(instruments)
    .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, "ham-d-17")));
  const served = await api.request(
    "GET",
    `/control/admin/studies/${studyId}/instruments/${hamd!.id}/ham-d-17`,
    { token: rater.token },
  );
  expect(served.statusCode, served.body).toBe(200);
  const form = parseDefinitionOrThrow(definitionJsonOf(served));
  await postSubmission(api, {
    token: rater.token,
    user: { id: rater.id, username: rater.username },
    participantId,
    instrumentId: hamd!.id,
    form,
    answers: everySelectOneAnswered(form, () => "c1"),
  });
  return { subjectId, participantId };
}

/** The researchers of the tests, invited at one site with the management role left empty. */
async function inviteResearchers(api: ApiHarness, administrator: Person, studyId: number, siteId: number) {
  const exporter = await invited(api, administrator, {
    name: "Rosa Exporter",
    studies: [{ study_id: studyId, role: ROLE_CODE.clinicalStaff1, site_ids: [siteId], may_export: true }],
  });
  const reader = await invited(api, administrator, {
    name: "Rui Reader",
    studies: [{ study_id: studyId, role: ROLE_CODE.clinicalStaff1, site_ids: [siteId] }],
  });
  return { exporter, reader };
}

async function demoSetting(api: ApiHarness): Promise<Setting> {
  const administrator = {
    id: await userIdOf(api, "admin@demo.test"),
    username: "admin@demo.test",
    token: await api.signIn("admin@demo.test"),
  };
  const coordinator = {
    id: await userIdOf(api, "coordinator@demo.test"),
    username: "coordinator@demo.test",
    token: await api.signIn("coordinator@demo.test"),
  };
  const { exporter, reader } = await inviteResearchers(api, administrator, 101, 1011);
  const mine = await ratedParticipant(api, coordinator, 101, 1011);
  const other = await ratedParticipant(api, coordinator, 101, 1012);
  return {
    studyId: 101,
    mySite: 1011,
    otherSite: 1012,
    administrator,
    exporter,
    reader,
    subject: { mine: mine.subjectId, other: other.subjectId, otherParticipantId: other.participantId },
  };
}

/** A two-site study of a site's own, made on the empty database as the README's first start says. */
async function ownStudySetting(api: ApiHarness, workDir: string): Promise<Setting> {
  const administrator = await firstAdministrator(api, "it.lead@site.example", "Ines Lead");

  const file = path.join(workDir, "own-study.yaml");
  await writeFile(
    file,
    stringify({
      format: 1,
      study: {
        id: 501,
        name: "HAM-D Two Sites",
        new_consent_enabled: false,
        sms_enabled: false,
        virtual_visits: false,
        instrument_architecture_version: 1,
      },
      sites: [
        { id: 5011, label: "North Clinic", tree_level: 4, virtual: false },
        { id: 5012, label: "South Clinic", tree_level: 4, virtual: false },
      ],
      instruments: [
        {
          slug: "ham-d-17",
          name: "Hamilton Depression Rating Scale (17 items)",
          display_name: "HAM-D 17",
          definition: path.join(root, "docs/example-study/ham-d-17.json"),
          permissions: ["16", "11", "12", "13"],
          schedule: { start_offset_days: 0, visible_days: 7 },
        },
      ],
      consents: [],
    }),
  );
  await cliSucceeds(api, "study", "apply", file);

  const coordinator = await invited(api, administrator, {
    name: "Carla Coordinator",
    management_role: "enroller",
    studies: [{ study_id: 501, role: ROLE_CODE.clinicalCoordinator, site_ids: [5011, 5012] }],
  });
  const { exporter, reader } = await inviteResearchers(api, administrator, 501, 5011);
  const mine = await ratedParticipant(api, coordinator, 501, 5011);
  const other = await ratedParticipant(api, coordinator, 501, 5012);
  return {
    studyId: 501,
    mySite: 5011,
    otherSite: 5012,
    administrator,
    exporter,
    reader,
    subject: { mine: mine.subjectId, other: other.subjectId, otherParticipantId: other.participantId },
  };
}

function exportScopeTests(api: ApiHarness, build: (api: ApiHarness) => Promise<Setting>) {
  let setting: Setting | undefined;
  beforeAll(async () => {
    setting = await build(api);
  });
  const ready = () => setting!;

  const exportsRecorded = async () =>
    (
      await api.db
        .select({ count: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
    )[0]!.count;
  const lastExport = async () =>
    (
      await api.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0]!;

  it("gives the one-site researcher with the export right their site only, in every format, audited with that site", async () => {
    const { studyId, mySite, otherSite, exporter, subject } = ready();
    // The portal refuses them the other site's participant: so must the export.
    const portal = await api.request(
      "GET",
      `/control/studies/${studyId}/sites/${otherSite}/participants/${subject.otherParticipantId}`,
      { token: exporter.token },
    );
    expect(portal.statusCode).toBe(403);
    for (const query of FORMATS) {
      const response = await api.request("GET", exportUrl(studyId, query), { token: exporter.token });
      expect(response.statusCode, `${query}: ${response.body.slice(0, 200)}`).toBe(200);
      const text = exportText(query, response.rawPayload);
      expect(text, query).toContain(subject.mine);
      expect(text, query).not.toContain(subject.other);
      if (query === "format=csv") expect([...csvSiteIds(response.rawPayload)]).toEqual([String(mySite)]);
      const row = await lastExport();
      expect(row.actorUserId, query).toBe(exporter.id);
      expect(row.details, query).toMatchObject({ site_ids: [mySite], requested_site_ids: null });
    }
    const narrowed = await api.request("GET", exportUrl(studyId, `format=csv&site_id=${mySite}`), {
      token: exporter.token,
    });
    expect(narrowed.statusCode).toBe(200);
    expect((await lastExport()).details).toMatchObject({ site_ids: [mySite], requested_site_ids: [mySite] });
  });

  it("refuses the one-site researcher an export naming the other site, in every format, recording nothing", async () => {
    const { studyId, mySite, otherSite, exporter } = ready();
    const before = await exportsRecorded();
    for (const query of FORMATS) {
      for (const sites of [`${otherSite}`, `${mySite},${otherSite}`]) {
        const response = await api.request("GET", exportUrl(studyId, `${query}&site_id=${sites}`), {
          token: exporter.token,
        });
        expect(response.statusCode, `${query} site_id=${sites}`).toBe(403);
        expect(errorBody.parse(response.json()).code).toBe("site_forbidden");
      }
    }
    expect(await exportsRecorded()).toBe(before);
  });

  it("refuses a researcher not given the export right, whatever the management role allows, recording nothing", async () => {
    const { studyId, mySite, reader } = ready();
    const before = await exportsRecorded();
    for (const query of [...FORMATS, `format=csv&site_id=${mySite}`]) {
      const response = await api.request("GET", exportUrl(studyId, query), { token: reader.token });
      expect(response.statusCode, query).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("export_forbidden");
    }
    expect(await exportsRecorded()).toBe(before);
  });

  it("lets the administrator who manages the study export it whole, the audit naming every site", async () => {
    const { studyId, mySite, otherSite, administrator, subject } = ready();
    for (const query of FORMATS) {
      const response = await api.request("GET", exportUrl(studyId, query), { token: administrator.token });
      expect(response.statusCode, `${query}: ${response.body.slice(0, 200)}`).toBe(200);
      const text = exportText(query, response.rawPayload);
      expect(text, query).toContain(subject.mine);
      expect(text, query).toContain(subject.other);
      const row = await lastExport();
      expect(row.actorUserId).toBe(administrator.id);
      expect(row.details).toMatchObject({ site_ids: [mySite, otherSite], requested_site_ids: null });
    }
    const other = await api.request("GET", exportUrl(studyId, `format=fhir&site_id=${otherSite}`), {
      token: administrator.token,
    });
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain(subject.other);
    expect(other.body).not.toContain(subject.mine);
    expect((await lastExport()).details).toMatchObject({
      site_ids: [otherSite],
      requested_site_ids: [otherSite],
    });
  });

  it("gives and takes the export right through the staff calls, the CSV import and the command line, never by default", async () => {
    const { studyId, mySite, otherSite, administrator, exporter, reader } = ready();
    const access = async (user: Person) => {
      const response = await api.request("GET", `/control/users/${user.id}/access`, {
        token: administrator.token,
      });
      expect(response.statusCode).toBe(200);
      return (response.json() as { studies: { study_id: number; may_export: boolean }[] }).studies;
    };
    expect(await access(exporter)).toEqual([
      expect.objectContaining({ study_id: studyId, may_export: true }),
    ]);
    expect(await access(reader)).toEqual([expect.objectContaining({ study_id: studyId, may_export: false })]);
    const setAccess = (user: Person, study: Record<string, unknown>) =>
      api.request("PUT", `/control/users/${user.id}/access`, {
        token: administrator.token,
        body: { management_role: "researcher", studies: [{ study_id: studyId, role: "11", ...study }] },
      });
    const exportAnswer = async (user: Person) =>
      (await api.request("GET", exportUrl(studyId, "format=csv"), { token: user.token })).statusCode;

    // Given to the reader at both sites, then taken away by a change that leaves it out.
    expect((await setAccess(reader, { site_ids: [mySite, otherSite], may_export: true })).statusCode).toBe(
      200,
    );
    expect(await exportAnswer(reader)).toBe(200);
    expect((await lastExport()).details).toMatchObject({ site_ids: [mySite, otherSite] });
    expect((await setAccess(reader, { site_ids: [mySite] })).statusCode).toBe(200);
    expect(await access(reader)).toEqual([expect.objectContaining({ may_export: false })]);
    expect(await exportAnswer(reader)).toBe(403);
    const refused = await setAccess(reader, { site_ids: [mySite], may_export: "yes" });
    expect(refused.statusCode).toBe(400);
    expect(errorBody.parse(refused.json()).issues?.map((issue) => issue.path)).toEqual([
      "studies.0.may_export",
    ]);

    // The CSV: may_export yes gives it, empty or no does not, anything else names the row.
    const csv = (rows: string[]) =>
      api.request("POST", "/control/users/invitations/import", {
        token: administrator.token,
        body: { csv: `email,name,study_id,role,site_ids,may_export\n${rows.join("\n")}\n`, dry_run: false },
      });
    const tag = randomUUID().slice(0, 8);
    const imported = await csv([
      `csv.yes-${tag}@site.example,Yes Csv,${studyId},11,${mySite},yes`,
      `csv.empty-${tag}@site.example,Empty Csv,${studyId},11,${mySite},`,
    ]);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(
      (imported.json() as { users: { email: string; studies: { may_export: boolean }[] }[] }).users.map(
        (user) => [user.email.split("-")[0], user.studies[0]!.may_export],
      ),
    ).toEqual([
      ["csv.yes", true],
      ["csv.empty", false],
    ]);
    const bad = await csv([`csv.bad-${tag}@site.example,Bad Csv,${studyId},11,${mySite},perhaps`]);
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { bad_rows: { issues: { field: string }[] }[] }).bad_rows[0]!.issues).toEqual([
      expect.objectContaining({ field: "may_export" }),
    ]);

    // The command line: --export names the studies of the groups it is given in.
    const email = `cli-${tag}@site.example`;
    await cliSucceeds(
      api,
      ..."user invite --email".split(" "),
      email,
      ...["--name", "Cli Exporter", "--study", String(studyId), "--role", "11"],
      ...["--sites", String(mySite), "--export", String(studyId)],
    );
    const cliUser = { id: await userIdOf(api, email), username: email, token: "" };
    expect(await access(cliUser)).toEqual([expect.objectContaining({ study_id: studyId, may_export: true })]);
  });
}

describeOnEachDatabase("study export scope on the demo", (api) => exportScopeTests(api, demoSetting));

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-export-scope-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describeOnEachDatabase(
  "study export scope on a site's own study made on an empty database",
  (api) => exportScopeTests(api, (harness) => ownStudySetting(harness, workDir)),
  { seed: "none" },
);

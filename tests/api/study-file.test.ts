/**
 * `clinro study apply FILE` and `clinro study export --study ID` (server/study-file/), driven
 * through runCli as people run them, on PGlite and PostgreSQL: the example study applied on an
 * empty database and used by a coordinator, idempotence, dry runs, round trips through export,
 * updates, retirement (the data stays), refusals naming every problem, exit codes.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { runCli } from "../../server/cli/run-cli.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import {
  auditLog,
  consents,
  consentVersions,
  instrumentDefinitions,
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  sites,
  studies,
  studyPermissions,
} from "../../server/db/schema.ts";
import { databaseTargets, describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { rowCounts } from "../support/row-counts.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLE = path.join(root, "docs/example-study.yaml");
const EXAMPLE_DIR = path.dirname(EXAMPLE);
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type StudyFileData = {
  study: Record<string, unknown>;
  sites: Record<string, unknown>[];
  instruments: (Record<string, unknown> & {
    slug: string;
    definition: unknown;
    schedule?: Record<string, unknown>;
  })[];
  consents: { definition: unknown }[];
};

let workDir = "";
let fileCounter = 0;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-study-file-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** The example study's data, its definition paths made absolute (the variant lives elsewhere). */
async function exampleData(): Promise<StudyFileData> {
  const data = parse(await readFile(EXAMPLE, "utf8")) as StudyFileData;
  const absolute = (definition: unknown) =>
    typeof definition === "string" ? path.resolve(EXAMPLE_DIR, definition) : definition;
  for (const instrument of data.instruments) instrument.definition = absolute(instrument.definition);
  for (const consent of data.consents) consent.definition = absolute(consent.definition);
  return data;
}

async function readJson(relative: string) {
  return JSON.parse(await readFile(path.join(EXAMPLE_DIR, relative), "utf8")) as Record<string, unknown>;
}

/** A variant of the example study written to its own file (YAML, or JSON with a .json name). */
async function variant(change: (data: StudyFileData) => void | Promise<void>, extension = "yaml") {
  const data = await exampleData();
  await change(data);
  fileCounter += 1;
  const file = path.join(workDir, `variant-${fileCounter}.${extension}`);
  await writeFile(file, extension === "json" ? JSON.stringify(data) : stringify(data));
  return file;
}

async function writeText(name: string, text: string) {
  const file = path.join(workDir, name);
  await writeFile(file, text);
  return file;
}

async function runWith(handle: DatabaseHandle | undefined, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    handle ? { database: handle } : {},
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const instrumentOf = async (db: ApiHarness["db"], studyId: number, slug: string) => {
  const [row] = await db
    .select()
    .from(instruments)
    .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
  return row!;
};

describe("clinro study apply on an empty database", () => {
  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `applies the example study, then says no changes (${target.title})`,
      async () => {
        let handle: DatabaseHandle;
        let drop = async () => {};
        if (target.kind === "postgres") {
          const created = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
          drop = created.drop;
          handle = await openDatabase({ kind: "postgres", url: created.url, maxConnections: 2 });
        } else {
          handle = await openDatabase({ kind: "pglite" });
        }
        try {
          await handle.migrate();
          const first = await runWith(handle, ["study", "apply", EXAMPLE]);
          expect(first.err).toBe("");
          expect(first.code).toBe(0);
          expect(first.out).toContain("create study 301 'GAD-118 Anxiety Open-Label'");
          expect(first.out).toContain("Applied 7 changes to study 301.");
          expect(await handle.db.select({ id: sites.id }).from(sites)).toEqual([{ id: 3011 }]);
          expect(await handle.db.select({ id: instruments.id }).from(instruments)).toHaveLength(4);
          const again = await runWith(handle, ["study", "apply", EXAMPLE]);
          expect(again.code).toBe(0);
          expect(again.out).toMatch(/no changes$/);
        } finally {
          await handle.close();
          await drop();
        }
      },
      60_000,
    );
  }
});

describeOnEachDatabase("clinro study apply and export", (api) => {
  const run = (args: string[]) => runWith(api.handle, args);
  const study301Counts = async () => rowCounts(api.db);

  let coordinator = { id: 0, username: "", token: "" };
  let firstParticipant = 0;

  it("refuses an invalid file as a whole, naming every problem by its path, and changes nothing", async () => {
    const before = await study301Counts();
    const file = await variant(async (data) => {
      delete data.study.name;
      data.study.sms_enabled = "yes";
      data.study.colour = "blue";
      data.sites.push({ id: 3012, label: "Second", tree_level: "four" });
      data.sites.push({ id: 3011, label: "Riverside again" });
      data.instruments[0]!.schedule = { visible_days: 0, specific_times: [{ start: "25:00", end: "6:00" }] };
      data.instruments[1]!.slug = "ham-d-17";
      data.instruments[2]!.definition = "missing-definition.json";
      data.instruments[3]!.definition = { id: "broken", type: "CLINRO", order: ["ghost"], questions: {} };
      data.instruments[3]!.permissions = ["16", "99"];
      data.consents.push({ definition: await readJson("example-study/cgi-s.json") });
    });
    const result = await run(["study", "apply", file]);
    expect(result.code).toBe(1);
    expect(result.out).toBe("");
    const expected = [
      "The study file has problems; nothing was changed:",
      "  study.name: is required",
      "  study.sms_enabled: must be true or false",
      "  study.colour: is not a field of the study file",
      "  sites[1].tree_level: must be a whole number",
      "  sites[2].id: site 3011 is listed twice (first at [0])",
      "  instruments[0].schedule.visible_days: must be at least 1",
      "  instruments[0].schedule.specific_times[0].start: must be a time of day h:mm, from 0:00 to 23:59",
      "  instruments[1].slug: instrument ham-d-17 is listed twice (first at [0])",
    ];
    for (const line of expected) expect(result.err).toContain(line);
    expect(result.err).toMatch(/ {2}instruments\[2\]\.definition: Cannot read .*missing-definition\.json/);
    expect(result.err).toContain(
      '  instruments[3].definition: Field "order[0]": "ghost" is not a question of this survey',
    );
    expect(result.err).toContain(
      "  instruments[3].permissions[1]: must be a clinician role code: 11, 12, 13, 16",
    );
    expect(result.err).toContain(
      `  consents[1].definition: Field "type": a consent's type is CONSENT, not "CLINRO"`,
    );
    // In the file's order.
    expect(result.err.indexOf("study.name")).toBeLessThan(result.err.indexOf("sites[1]"));
    expect(result.err.indexOf("sites[2]")).toBeLessThan(result.err.indexOf("instruments[0]"));
    expect(await study301Counts()).toEqual(before);
  });

  it("refuses what the database does not allow (another study's site, an announcement's slug), changing nothing", async () => {
    const before = await study301Counts();
    const file = await variant((data) => {
      data.sites.push({ id: 1021, label: "Remote, again" });
      data.instruments[0]!.slug = "visit-schedule-update";
      data.study.id = 101;
      data.study.name = "MDD-301 Depression Maintenance";
    });
    const result = await run(["study", "apply", file]);
    expect(result.code).toBe(1);
    expect(result.err).toContain("The study file cannot be applied; nothing was changed:");
    expect(result.err).toContain(
      "  sites[1].id: site 1021 belongs to study 102; site ids are unique across studies",
    );
    expect(result.err).toContain(
      '  instruments[0].slug: "visit-schedule-update" is an announcement of study 101, not a clinician instrument',
    );
    expect(await study301Counts()).toEqual(before);
  });

  it("answers 2 for a wrong command and 1 for a study that does not exist, with a reason", async () => {
    for (const args of [
      ["study"],
      ["study", "apply"],
      ["study", "apply", EXAMPLE, "extra"],
      ["study", "apply", EXAMPLE, "--study", "301"],
      ["study", "export"],
      ["study", "export", "--study", "abc"],
      ["study", "export", "--study", "0"],
      ["study", "frobnicate"],
      ["study", "apply", EXAMPLE, "--bogus"],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.err).toContain("npx clinro study apply FILE [--dry-run]");
    }
    const missing = await run(["study", "export", "--study", "9999"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe("Study 9999 does not exist.");
    const unreadable = await run(["study", "apply", path.join(workDir, "nowhere.yaml")]);
    expect(unreadable.code).toBe(1);
    expect(unreadable.err).toMatch(/^Cannot read .*nowhere\.yaml: .*; nothing was changed\.$/);
    const badYaml = await run(["study", "apply", await writeText("bad.yaml", "study: [unclosed\n")]);
    expect(badYaml.code).toBe(1);
    expect(badYaml.err).toContain("is not valid YAML; nothing was changed:");
  });

  it("prints the plan of a dry run and writes nothing", async () => {
    const before = await study301Counts();
    const result = await run(["study", "apply", EXAMPLE, "--dry-run"]);
    expect(result.code).toBe(0);
    expect(result.out.split("\n")).toEqual([
      `Plan for study 301 (${EXAMPLE}):`,
      "  create study 301 'GAD-118 Anxiety Open-Label'",
      "  create site 3011 'Riverside Medical Group'",
      "  create instrument ham-d-17 'HAM-D 17' (definition version 1 from example-study/ham-d-17.json)",
      "  create instrument cgi-s 'CGI-S' (definition version 1 from example-study/cgi-s.json)",
      "  create instrument adverse-events-review 'Adverse Events Review' (definition version 1 from example-study/adverse-events-review.json)",
      "  create instrument sleep-diary-review 'Sleep Diary Review' (definition version 1 from example-study/sleep-diary-review.json)",
      "  create consent gad118-main-consent 'Main Study Informed Consent' version 1 (offered to the study's participants)",
      "Dry run: 7 changes planned, nothing was changed.",
    ]);
    expect(await study301Counts()).toEqual(before);
  });

  it("applies the example study: the study, its site, instruments with their schedules and the consent, audited", async () => {
    const result = await run(["study", "apply", EXAMPLE]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("  create site 3011 'Riverside Medical Group'");
    expect(result.out).toMatch(/Applied 7 changes to study 301\.$/);

    const [study] = await api.db.select().from(studies).where(eq(studies.id, 301));
    expect(study).toEqual({
      id: 301,
      name: "GAD-118 Anxiety Open-Label",
      smsEnabled: false,
      newConsentEnabled: true,
      config: {
        virtual_visits: false,
        instrument_architecture_version: 1,
        clinro: { greeting: "Welcome to GAD-118" },
      },
    });
    expect(await api.db.select().from(sites).where(eq(sites.studyId, 301))).toEqual([
      {
        id: 3011,
        studyId: 301,
        label: "Riverside Medical Group",
        treeLevel: 4,
        isVirtual: false,
        retiredAt: null,
      },
    ]);
    const cgis = await instrumentOf(api.db, 301, "cgi-s");
    expect(cgis).toMatchObject({
      name: "Clinical Global Impression - Severity",
      displayName: "CGI-S",
      instrumentType: "CLINRO",
      permissions: ["16"],
      startOffsetDays: 7,
      visibleDays: 7,
      retiredAt: null,
      metadata: { display_name: "CGI-S" },
    });
    const adverse = await instrumentOf(api.db, 301, "adverse-events-review");
    expect(adverse).toMatchObject({
      permissions: ["16", "11", "12", "13"],
      visibleDays: 1,
      metadata: { display_name: "Adverse Events Review", schedule: { recurring: { scheme: "persistent" } } },
    });
    const sleep = await instrumentOf(api.db, 301, "sleep-diary-review");
    expect(sleep.metadata).toEqual({
      display_name: "Sleep Diary Review",
      visibility: "specific_time",
      visibilityRanges: [{ start: "6:00", end: "22:00" }],
    });
    const [definition] = await api.db
      .select()
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, cgis.id));
    expect(definition).toMatchObject({
      versionNumber: 1,
      servedAs: "json",
      definition: await readJson("example-study/cgi-s.json"),
    });
    const [consent] = await api.db.select().from(consents).where(eq(consents.studyId, 301));
    expect(consent).toMatchObject({
      title: "Main Study Informed Consent",
      version: 1,
      definitionKey: "gad118-main-consent",
      retiredAt: null,
    });
    const [event] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "study_file_applied"))
      .orderBy(asc(auditLog.id));
    expect(event).toMatchObject({
      actorUserId: null,
      tableName: "studies",
      rowKey: { id: 301 },
      details: { via: "cli", command: "study apply", file: EXAMPLE },
    });
    expect((event!.details as { changes: string[] }).changes).toHaveLength(7);
    // The rows themselves are in the trail, as every write's are.
    const [inserted] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "insert"),
          eq(auditLog.tableName, "sites"),
          sql`${auditLog.rowKey} = '{"id": 3011}'::jsonb`,
        ),
      );
    expect(inserted!.count).toBe(1);
  });

  it("gives a study a coordinator can use: the site, the instruments to do, the consent to collect", async () => {
    const user = await api.createUser({ studies: {} });
    await api.db
      .insert(studyPermissions)
      .values({ userId: user.id, studyId: 301, role: "16", scope: ["ca", "cp"] });
    await api.db.insert(sitePermissions).values({ userId: user.id, siteId: 3011 });
    const token = await api.signIn(user.username);
    coordinator = { id: user.id, username: user.username, token };
    const [participant] = await api.db
      .insert(participants)
      .values({ studyId: 301, siteId: 3011, fname: "Ada", lname: "Rivera", subjectId: "GAD-301-001" })
      .returning({ id: participants.id });
    firstParticipant = participant!.id;
    const now = Date.now();
    for (const slug of ["ham-d-17", "cgi-s", "adverse-events-review", "sleep-diary-review"]) {
      const instrument = await instrumentOf(api.db, 301, slug);
      await api.db.insert(instrumentInstances).values({
        instrumentId: instrument.id,
        participantId: firstParticipant,
        startDate: new Date(now - HOUR_MS),
        expiration: new Date(now + 7 * DAY_MS),
      });
    }

    const me = await api.request("GET", "/control/clinro/users/me", { token });
    expect(me.statusCode).toBe(200);
    const permission = (
      me.json() as { permissions: Record<string, { study_name: string; sites: { site_id: number }[] }> }
    ).permissions["301"];
    expect(permission?.study_name).toBe("GAD-118 Anxiety Open-Label");
    expect(permission?.sites.map((site) => site.site_id)).toEqual([3011]);

    const studyAnswer = await api.request("GET", "/control/studies/301", { token });
    expect(studyAnswer.statusCode).toBe(200);
    expect(studyAnswer.json()).toMatchObject({
      newConsentEnabled: true,
      config: { clinro: { greeting: "Welcome to GAD-118" } },
    });

    const forms = await api.request(
      "GET",
      `/control/clinro/participants/${firstParticipant}/instruments?study_id=301`,
      {
        token,
      },
    );
    expect(forms.statusCode).toBe(200);
    expect(
      (forms.json() as { instruments: { name: string }[] }).instruments.map((row) => row.name).sort(),
    ).toEqual(["Adverse Events Review", "CGI-S", "HAM-D 17", "Sleep Diary Review"]);
    const definition = await api.request(
      "GET",
      `/control/admin/studies/301/instruments/${(await instrumentOf(api.db, 301, "ham-d-17")).id}/ham-d-17`,
      { token },
    );
    expect(definition.statusCode).toBe(200);

    const consentList = await api.request("GET", "/control/v2/clinro/me/consents?study_id=301", { token });
    expect(consentList.statusCode).toBe(200);
    expect(consentList.json()).toMatchObject({
      consents: [{ study_id: 301, consents: [{ title: "Main Study Informed Consent", version: 1 }] }],
    });
  });

  it("applied again, changes nothing and says so", async () => {
    const before = await study301Counts();
    const events = await api.db.select({ id: auditLog.id }).from(auditLog);
    const result = await run(["study", "apply", EXAMPLE]);
    expect(result.code).toBe(0);
    expect(result.out).toBe(`Study 301 already matches ${EXAMPLE}: no changes`);
    expect(await study301Counts()).toEqual(before);
    expect(await api.db.select({ id: auditLog.id }).from(auditLog)).toEqual(events);
  });

  it("updates what the file changes, field by field, and a changed definition becomes a new version", async () => {
    const file = await variant((data) => {
      data.study.greeting = "Welcome back to GAD-118";
      data.sites[0]!.label = "Riverside Medical Group (main)";
      data.instruments[0]!.schedule = { ...data.instruments[0]!.schedule, visible_days: 14 };
      data.instruments[2]!.schedule = { persistent: false, start_offset_days: 2 };
      data.instruments[3]!.schedule = {
        specific_times: [
          { start: "7:30", end: "21:00" },
          { start: "22:00", end: "1:00" },
        ],
      };
    }, "json");
    const ham = await instrumentOf(api.db, 301, "ham-d-17");
    const result = await run(["study", "apply", file]);
    expect(result.code).toBe(0);
    expect(result.out.split("\n")).toEqual([
      `Plan for study 301 (${file}):`,
      "  update study 301: greeting 'Welcome to GAD-118' -> 'Welcome back to GAD-118'",
      "  update site 3011: label 'Riverside Medical Group' -> 'Riverside Medical Group (main)'",
      "  update instrument ham-d-17: visible_days 7 -> 14",
      "  update instrument adverse-events-review: start_offset_days 0 -> 2, persistent true -> false",
      "  update instrument sleep-diary-review: specific_times 6:00-22:00 -> 7:30-21:00, 22:00-1:00",
      "Applied 5 changes to study 301.",
    ]);
    expect(await instrumentOf(api.db, 301, "ham-d-17")).toMatchObject({ id: ham.id, visibleDays: 14 });
    expect((await instrumentOf(api.db, 301, "adverse-events-review")).metadata).toEqual({
      display_name: "Adverse Events Review",
    });
    expect((await instrumentOf(api.db, 301, "sleep-diary-review")).metadata.visibilityRanges).toEqual([
      { start: "7:30", end: "21:00" },
      { start: "22:00", end: "1:00" },
    ]);
    const [site] = await api.db.select().from(sites).where(eq(sites.id, 3011));
    expect(site!.label).toBe("Riverside Medical Group (main)");

    const changedDefinition = await variant(async (data) => {
      const cgis = await readJson("example-study/cgi-s.json");
      data.instruments[1]!.definition = { ...cgis, title: "CGI-S (revised)" };
    });
    const cgis = await instrumentOf(api.db, 301, "cgi-s");
    const revised = await run(["study", "apply", changedDefinition]);
    expect(revised.code).toBe(0);
    expect(revised.out).toContain("  update instrument cgi-s: new definition version 2 from inline");
    // The rest of the example study comes back as it was.
    expect(revised.out).toContain("  update instrument ham-d-17: visible_days 14 -> 7");
    const versions = await api.db
      .select({
        version: instrumentDefinitions.versionNumber,
        title: sql<string>`${instrumentDefinitions.definition} ->> 'title'`,
      })
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, cgis.id))
      .orderBy(asc(instrumentDefinitions.versionNumber));
    expect(versions).toEqual([
      { version: 1, title: "Clinical Global Impression - Severity (CGI-S)" },
      { version: 2, title: "CGI-S (revised)" },
    ]);
    // The example's definition again is a third version, not a rewrite of the first.
    const back = await run(["study", "apply", EXAMPLE]);
    expect(back.out).toContain(
      "  update instrument cgi-s: new definition version 3 from example-study/cgi-s.json",
    );
    expect((await run(["study", "apply", EXAMPLE])).out).toMatch(/no changes$/);
  });

  it("retires what the file no longer lists, keeping its data, and brings it back when listed again", async () => {
    const withSecondSite = await variant((data) => {
      data.sites.push({ id: 3012, label: "Riverside North", tree_level: 4 });
    });
    expect((await run(["study", "apply", withSecondSite])).out).toContain(
      "  create site 3012 'Riverside North'",
    );
    await api.db.insert(sitePermissions).values({ userId: coordinator.id, siteId: 3012 });
    const [north] = await api.db
      .insert(participants)
      .values({ studyId: 301, siteId: 3012, fname: "Noor", lname: "Haddad", subjectId: "GAD-301-002" })
      .returning({ id: participants.id });
    const sleep = await instrumentOf(api.db, 301, "sleep-diary-review");
    await api.db.insert(instrumentInstances).values({
      instrumentId: sleep.id,
      participantId: firstParticipant,
      startDate: new Date(Date.now() - 3 * DAY_MS),
      expiration: new Date(Date.now() - 2 * DAY_MS),
      completion: new Date(Date.now() - 2 * DAY_MS - HOUR_MS),
      whoCompleted: coordinator.id,
    });

    const without = await variant((data) => {
      data.instruments = data.instruments.filter((instrument) => instrument.slug !== "sleep-diary-review");
      data.consents = [];
    });
    const result = await run(["study", "apply", without]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      "  retire site 3012 'Riverside North' (its participants and their data stay)",
    );
    expect(result.out).toContain(
      "  retire instrument sleep-diary-review (no new deliveries; its submissions stay)",
    );
    expect(result.out).toContain(
      "  retire consent gad118-main-consent 'Main Study Informed Consent' (offered to no new participant; its signings stay)",
    );
    expect(result.out).toMatch(/Applied 3 changes to study 301\.$/);

    // Nothing was deleted.
    const [site] = await api.db.select().from(sites).where(eq(sites.id, 3012));
    expect(site!.retiredAt).toBeInstanceOf(Date);
    expect((await instrumentOf(api.db, 301, "sleep-diary-review")).retiredAt).toBeInstanceOf(Date);
    const [consent] = await api.db.select().from(consents).where(eq(consents.studyId, 301));
    expect(consent!.retiredAt).toBeInstanceOf(Date);
    expect(
      await api.db.select().from(consentVersions).where(eq(consentVersions.consentId, consent!.id)),
    ).toHaveLength(1);

    const token = coordinator.token;
    // The retired site is no longer offered, and its participant's record is still readable.
    const me = await api.request("GET", "/control/clinro/users/me", { token });
    const mySites = (me.json() as { permissions: Record<string, { sites: { site_id: number }[] }> })
      .permissions["301"];
    expect(mySites?.sites.map((row) => row.site_id)).toEqual([3011]);
    const studyAnswer = await api.request("GET", "/control/studies/301", { token });
    expect((studyAnswer.json() as { sites: { site_id: number }[] }).sites.map((row) => row.site_id)).toEqual([
      3011,
    ]);
    const record = await api.request("GET", `/control/studies/301/sites/3012/participants/${north!.id}`, {
      token,
    });
    expect(record.statusCode).toBe(200);

    // The retired instrument's completed delivery stays listed; its open one is no longer to do.
    const forms = await api.request(
      "GET",
      `/control/clinro/participants/${firstParticipant}/instruments?study_id=301`,
      {
        token,
      },
    );
    const sleepRows = (
      forms.json() as { instruments: { name: string; completed: string | null }[] }
    ).instruments.filter((row) => row.name === "Sleep Diary Review");
    expect(sleepRows).toHaveLength(1);
    expect(sleepRows[0]!.completed).not.toBeNull();
    const instances = await api.request(
      "GET",
      `/control/participants/${firstParticipant}/instruments/instances?study_id=301`,
      { token },
    );
    const sleepInstances = (
      instances.json() as { instruments: { name: string; instances: { completion: string | null }[] }[] }
    ).instruments.find((row) => row.name === "Sleep Diary Review");
    expect(sleepInstances?.instances.map((instance) => instance.completion !== null)).toEqual([true]);
    const pending = await api.request("GET", "/control/pending_instruments?study_id=301", {
      token,
      headers: { version: "3.4.0" },
    });
    expect(pending.statusCode).toBe(200);
    const pendingNames = (pending.json() as { instruments: { name: string }[] }).instruments.map(
      (row) => row.name,
    );
    expect(pendingNames).toContain("HAM-D 17");
    expect(pendingNames).not.toContain("Sleep Diary Review");
    // The retired consent is not listed for signing.
    const consentList = await api.request("GET", "/control/v2/clinro/me/consents?study_id=301", { token });
    expect(consentList.json()).toEqual({
      consents: [{ study_id: 301, study_name: "GAD-118 Anxiety Open-Label", consents: [] }],
    });

    // Listed again: brought back, with its data.
    const again = await run(["study", "apply", withSecondSite]);
    expect(again.out).toContain("  bring back site 3012 'Riverside North'");
    expect(again.out).toContain("  bring back instrument sleep-diary-review");
    expect(again.out).toContain("  bring back consent gad118-main-consent 'Main Study Informed Consent'");
    expect((await instrumentOf(api.db, 301, "sleep-diary-review")).retiredAt).toBeNull();
    const [back] = await api.db.select().from(sites).where(eq(sites.id, 3012));
    expect(back!.retiredAt).toBeNull();
    expect((await run(["study", "apply", EXAMPLE])).out).toContain("  retire site 3012 'Riverside North'");
  });

  it("exports a study in the same format: export then apply changes nothing (the example and the demo's studies)", async () => {
    for (const studyId of [301, 101, 102, 103]) {
      const exported = await run(["study", "export", "--study", String(studyId)]);
      expect(exported.err).toBe("");
      expect(exported.code).toBe(0);
      expect(exported.out).toMatch(/^# Study \d+, exported by/);
      const file = await writeText(`export-${studyId}.yaml`, exported.out);
      const before = await study301Counts();
      const applied = await run(["study", "apply", file]);
      expect(applied.err).toBe("");
      expect(applied.out, `study ${studyId}`).toBe(`Study ${studyId} already matches ${file}: no changes`);
      expect(await study301Counts()).toEqual(before);
    }
    const exported = parse((await run(["study", "export", "--study", "301"])).out) as StudyFileData;
    expect(exported.study).toEqual({
      id: 301,
      name: "GAD-118 Anxiety Open-Label",
      new_consent_enabled: true,
      sms_enabled: false,
      virtual_visits: false,
      instrument_architecture_version: 1,
      greeting: "Welcome to GAD-118",
    });
    // The retired site stays out of the export.
    expect(exported.sites).toEqual([
      { id: 3011, label: "Riverside Medical Group", tree_level: 4, virtual: false },
    ]);
    expect(exported.instruments.find((row) => row.slug === "sleep-diary-review")).toMatchObject({
      schedule: {
        start_offset_days: 0,
        visible_days: 1,
        persistent: false,
        specific_times: [{ start: "6:00", end: "22:00" }],
      },
      definition: await readJson("example-study/sleep-diary-review.json"),
    });
    expect(exported.consents).toEqual([
      { definition: { ...(await readJson("example-study/gad118-main-consent.json")), consent_version: 1 } },
    ]);
    // The demo's kitchen sink is served as a zip; its announcement is not the file's.
    const demo = parse((await run(["study", "export", "--study", "101"])).out) as StudyFileData;
    expect(demo.instruments.find((row) => row.slug === "kitchen-sink")).toMatchObject({ served_as: "zip" });
    expect(demo.instruments.map((row) => row.slug)).not.toContain("visit-schedule-update");
  });

  it("publishes a changed consent as its next version, and refuses a consent_version that does not fit", async () => {
    const consentJson = await readJson("example-study/gad118-main-consent.json");
    const changed = await variant((data) => {
      data.consents = [
        {
          definition: { ...consentJson, title: "Main Study Informed Consent (amended)", consent_version: 2 },
        },
      ];
    });
    const result = await run(["study", "apply", changed]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      "  publish consent gad118-main-consent 'Main Study Informed Consent (amended)' version 2 (participants who had not declined are asked to consent again)",
    );
    const [consent] = await api.db.select().from(consents).where(eq(consents.studyId, 301));
    expect(consent).toMatchObject({ version: 2, title: "Main Study Informed Consent (amended)" });

    const before = await study301Counts();
    // The example says consent_version 1 with the first text: neither the current version's
    // definition nor the next version.
    const stale = await run(["study", "apply", EXAMPLE]);
    expect(stale.code).toBe(1);
    expect(stale.err).toContain(
      "  consents[0].definition.consent_version: is 1, but the definition changed: the next version of consent gad118-main-consent is 3",
    );
    const wrongNumber = await run([
      "study",
      "apply",
      await variant((data) => {
        data.consents = [
          {
            definition: {
              ...consentJson,
              title: "Main Study Informed Consent (amended)",
              consent_version: 3,
            },
          },
        ];
      }),
    ]);
    expect(wrongNumber.code).toBe(1);
    expect(wrongNumber.err).toContain(
      "  consents[0].definition.consent_version: is 3, but this definition is version 2 of consent gad118-main-consent",
    );
    expect(await study301Counts()).toEqual(before);
  });
  it("lets two applies of one study run at once: one makes the study, the other then finds nothing to do", async () => {
    const file = await variant((data) => {
      data.study.id = 302;
      data.sites = [{ id: 3021, label: "Parallel Site" }];
      data.consents = [];
    });
    const results = await Promise.all([run(["study", "apply", file]), run(["study", "apply", file])]);
    expect(results.map((result) => result.code)).toEqual([0, 0]);
    const outs = results.map((result) => result.out.split("\n").at(-1)).sort();
    expect(outs).toEqual([
      `Applied 6 changes to study 302.`,
      `Study 302 already matches ${file}: no changes`,
    ]);
    expect(
      await api.db.select({ id: instruments.id }).from(instruments).where(eq(instruments.studyId, 302)),
    ).toHaveLength(4);
  });
  it("imports instruments written in a standard (format: redcap), the plan listing what they do not carry", async () => {
    const redcap = path.join(root, "tests/fixtures/standards/redcap");
    const phq9 = path.join(redcap, "phq9-data-dictionary.csv");
    const gad7 = path.join(redcap, "gad7-data-dictionary.csv");
    const studyFile = (instrumentEntries: Record<string, unknown>[]) =>
      stringify({
        study: { id: 303, name: "Standards import" },
        sites: [{ id: 3031, label: "Standards Site" }],
        instruments: instrumentEntries,
      });
    const refused = await writeText(
      "standards-refused.yaml",
      studyFile([
        { slug: "inline", format: "redcap", definition: { id: "x" } },
        { slug: "missing", format: "redcap", definition: "no-such-dictionary.csv" },
        { slug: "wrong-form", format: "redcap", definition: phq9, form: "gad7" },
        { slug: "form-elsewhere", format: "odm", definition: phq9, form: "phq9" },
        { slug: "spss", format: "spss", definition: phq9 },
      ]),
    );
    const before = await rowCounts(api.db);
    const refusal = await run(["study", "apply", refused]);
    expect(refusal.code).toBe(1);
    expect(refusal.err).toContain(
      "instruments[0].definition: a redcap definition is a file path, not written inline",
    );
    expect(refusal.err).toContain("instruments[1].definition: Cannot read");
    expect(refusal.err).toContain('instruments[2].definition: phq9-data-dictionary.csv has no form "gad7"');
    expect(refusal.err).toContain(
      "instruments[3].form: applies to REDCap dictionaries only (format: redcap)",
    );
    expect(refusal.err).toContain("instruments[4].format: must be fhir, redcap, odm");
    expect(await rowCounts(api.db)).toEqual(before);

    const file = await writeText(
      "standards.yaml",
      studyFile([
        { slug: "phq-9", name: "PHQ-9", format: "redcap", definition: phq9 },
        { slug: "gad-7", name: "GAD-7", format: "redcap", definition: gad7, form: "gad7" },
      ]),
    );
    const result = await run(["study", "apply", file]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out.split("\n")).toEqual([
      `Plan for study 303 (${file}):`,
      "  create study 303 'Standards import'",
      "  create site 3031 'Standards Site'",
      `  create instrument phq-9 'PHQ-9' (definition version 1 from ${phq9}), read as redcap; not mapped, or mapped in part:`,
      "    record_id: the record id field (the project's first field) is not a question: the portal identifies participants itself",
      `  create instrument gad-7 'GAD-7' (definition version 1 from ${gad7}), read as redcap: everything mapped`,
      "Applied 4 changes to study 303.",
    ]);
    const [stored] = await api.db
      .select()
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, (await instrumentOf(api.db, 303, "gad-7")).id));
    expect(stored).toMatchObject({
      versionNumber: 1,
      definition: { scores: [{ id: "gad7_total", formula: "sum({gad7_items})" }] },
    });

    const again = await run(["study", "apply", file]);
    expect(again.out).toBe(`Study 303 already matches ${file}: no changes`);
  });
});

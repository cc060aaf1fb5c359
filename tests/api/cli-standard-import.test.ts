/**
 * `clinro instrument import --from fhir|redcap|odm FILE --study ID`: a standard instrument read
 * by its format's reader and stored as the JSON import stores one (a new instrument, then the
 * next definition version of the same slug), the import report printed; a refused file stores
 * nothing. On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { instrumentDefinitions, instruments, participants, users } from "../../server/db/schema.ts";
import { INSTRUMENT_READERS } from "../../server/instrument-import/instrument-readers.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { rowCounts } from "../support/row-counts.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/standards/redcap");

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-standard-import-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) },
    out,
    err,
  };
}

describeOnEachDatabase("clinro instrument import --from", (api) => {
  const run = async (args: string[]) => {
    const captured = capture();
    const code = await runCli(args, captured.output, { database: api.handle });
    return { code, out: captured.out.join("\n"), err: captured.err.join("\n") };
  };
  const instrumentOf = async (studyId: number, slug: string) => {
    const rows = await api.db
      .select()
      .from(instruments)
      .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  const versionsOf = (instrumentId: number) =>
    api.db
      .select()
      .from(instrumentDefinitions)
      .where(eq(instrumentDefinitions.instrumentId, instrumentId))
      .orderBy(instrumentDefinitions.versionNumber);

  it("imports the PHQ-9 data dictionary as a new clinician instrument and prints the import report", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const result = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      file,
      "--study",
      "101",
      "--name",
      "PHQ-9",
    ]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Created instrument \d+ "PHQ-9" \(slug phq9\) of study 101 with definition version 1/,
    );
    expect(result.out).toContain("Import report: 1 thing not mapped, or mapped in part:");
    expect(result.out).toContain("  record_id: the record id field");
    const created = await instrumentOf(101, "phq9");
    expect(created).toMatchObject({ displayName: "PHQ-9", instrumentType: "CLINRO" });
    const [stored] = await versionsOf(created.id);
    const parsed = parseSurveyDefinition(stored!.definition);
    expect(parsed.ok).toBe(true);
    expect(stored!.definition).toMatchObject({
      scores: [{ id: "phq9_total" }, { id: "phq9_severity" }],
      questions: { phq9_9: { type: "select_one" } },
    });
  });

  it("imports HAM-A, and GAD-7 from an instrument zip; everything mapped says so", async () => {
    const hama = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      path.join(fixtures, "hama-data-dictionary.csv"),
      "--study",
      "101",
      "--permissions",
      "16",
    ]);
    expect(hama.code).toBe(0);
    expect(hama.out).toContain("hama_severe_notes: a notes field becomes a text question");
    expect(await instrumentOf(101, "hama")).toMatchObject({ permissions: ["16"], displayName: "Hama" });

    const zip = path.join(workDir, "GAD-7.zip");
    const csv = await readFile(path.join(fixtures, "gad7-data-dictionary.csv"));
    await writeFile(
      zip,
      zipSync({ "instrument.csv": new Uint8Array(csv), "OriginID.txt": strToU8("redcap.example.org") }),
    );
    const gad = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      zip,
      "--study",
      "101",
      "--slug",
      "gad-7",
    ]);
    expect(gad.err).toBe("");
    expect(gad.code).toBe(0);
    expect(gad.out).toContain("Import report: everything mapped.");
    const [stored] = await versionsOf((await instrumentOf(101, "gad-7")).id);
    expect(stored!.definition).toMatchObject({ questions: { gad7_items: { type: "matrix" } } });
  });

  it("adds definition version 2 when the same slug is imported again", async () => {
    const file = path.join(workDir, "hamd_redcap.csv");
    await copyFile(path.join(fixtures, "hama-data-dictionary.csv"), file);
    const first = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      file,
      "--study",
      "102",
      "--slug",
      "ham-a",
    ]);
    expect(first.code).toBe(0);
    const second = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      file,
      "--study",
      "102",
      "--slug",
      "ham-a",
    ]);
    expect(second.err).toBe("");
    expect(second.code).toBe(0);
    expect(second.out).toMatch(
      /^Added definition version 2 to instrument \d+ "Hama" \(slug ham-a\) of study 102/,
    );
    const instrument = await instrumentOf(102, "ham-a");
    expect((await versionsOf(instrument.id)).map((row) => row.versionNumber)).toEqual([1, 2]);
  });

  it("imports the form named with --form from a dictionary holding several", async () => {
    const phq = await readFile(path.join(fixtures, "phq9-data-dictionary.csv"), "utf8");
    const gadRows = (await readFile(path.join(fixtures, "gad7-data-dictionary.csv"), "utf8"))
      .split("\n")
      .slice(1);
    const file = path.join(workDir, "project.csv");
    await writeFile(file, `${phq.trimEnd()}\n${gadRows.join("\n")}`);
    const result = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      file,
      "--study",
      "101",
      "--form",
      "gad7",
      "--slug",
      "gad7-from-project",
    ]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("form phq9: not imported");
    const [stored] = await versionsOf((await instrumentOf(101, "gad7-from-project")).id);
    expect(stored!.definition).toMatchObject({ order: ["gad7_items", "gad7_difficulty"] });
  });

  it("takes a submission of an imported PHQ-9, the server scoring it as the instrument does", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const imported = await run([
      "instrument",
      "import",
      "--from",
      "redcap",
      file,
      "--study",
      "101",
      "--slug",
      "phq9-scored",
    ]);
    expect(imported.code).toBe(0);
    const instrument = await instrumentOf(101, "phq9-scored");
    const served = await api.request(
      "GET",
      `/control/admin/studies/101/instruments/${instrument.id}/phq9-scored`,
      {
        token: await api.signIn("staff3@demo.test"),
      },
    );
    expect(served.statusCode).toBe(200);
    const definition = parseDefinitionOrThrow(definitionJsonOf(served));
    const [participant] = await api.db
      .insert(participants)
      .values({ studyId: 101, siteId: 1011, fname: "Imported", lname: "Scale" })
      .returning({ id: participants.id });
    const [coordinator] = await api.db
      .select()
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));

    const items = [3, 2, 2, 1, 0, 1, 2, 1, 0]; // 12: moderate (band 2)
    const answers = {
      phq9_date: [{ label: "2026-11-20", value: "2026-11-20T00:00:00.000Z" }],
      ...Object.fromEntries(
        items.map((value, index) => [
          `phq9_${index + 1}`,
          [chosen(definition, `phq9_${index + 1}`, String(value))],
        ]),
      ),
      phq9_difficulty: [chosen(definition, "phq9_difficulty", "1")],
    };
    const payload = payloadFor(definition, answers, {
      user: { id: coordinator!.id, username: coordinator!.username },
      instrumentId: instrument.id,
      instanceId: randomUUID(),
    });
    const response = await api.request(
      "POST",
      `/control/clinro/participant/${participant!.id}/instruments/${instrument.id}/submission`,
      {
        token: await api.signIn("coordinator@demo.test"),
        body: [payload] as unknown as object,
        headers: { "idempotency-key": randomUUID(), version: "010" },
      },
    );
    expect(response.statusCode).toBe(201);
    expect((response.json() as { scores: unknown }).scores).toEqual([
      expect.objectContaining({ id: "phq9_total", final_value: 12 }),
      expect.objectContaining({ id: "phq9_severity", final_value: 2 }),
    ]);
  });

  it("refuses a file its reader cannot read with exit code 1 and the reason, storing nothing", async () => {
    const notDictionary = path.join(workDir, "participants.csv");
    await writeFile(notDictionary, "name,email\nAda,ada@example.org\n");
    const missing = path.join(workDir, "missing.csv");
    const zip = path.join(workDir, "empty.zip");
    await writeFile(zip, zipSync({ "readme.txt": strToU8("nothing here") }));
    const before = await rowCounts(api.db);
    const cases: [string[], string][] = [
      [[notDictionary], 'is not a REDCap data dictionary: it lacks the columns "Variable / Field Name"'],
      [[missing], `Cannot read ${missing}`],
      [[zip], "is not a REDCap instrument zip: it holds no instrument.csv (it holds readme.txt)"],
      [[path.join(fixtures, "phq9-data-dictionary.csv"), "--form", "exit"], 'has no form "exit"'],
      [[path.join(fixtures, "phq9-data-dictionary.csv"), "--study", "999999"], "Study 999999 does not exist"],
    ];
    for (const [args, reason] of cases) {
      const study = args.includes("--study") ? [] : ["--study", "101"];
      const result = await run(["instrument", "import", "--from", "redcap", ...args, ...study]);
      expect(result.code, reason).toBe(1);
      expect(result.err, reason).toContain(reason);
      expect(result.err, reason).toContain("nothing was imported");
      expect(result.out, reason).toBe("");
    }
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("says which formats exist, that --form is REDCap's, and which formats cannot be imported yet", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const unknown = await run(["instrument", "import", "--from", "spss", file, "--study", "101"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--from must be one of fhir, redcap, odm; not "spss"');
    const form = await run([
      "instrument",
      "import",
      "--from",
      "fhir",
      file,
      "--study",
      "101",
      "--form",
      "phq9",
    ]);
    expect(form.code).toBe(2);
    expect(form.err).toContain("--form applies to REDCap dictionaries only");
    const before = await rowCounts(api.db);
    const reader = INSTRUMENT_READERS.odm;
    delete INSTRUMENT_READERS.odm;
    try {
      const result = await run(["instrument", "import", "--from", "odm", file, "--study", "101"]);
      expect(result.code).toBe(1);
      expect(result.err).toBe("The format odm cannot be imported yet; nothing was imported.");
    } finally {
      INSTRUMENT_READERS.odm = reader;
    }
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("imports FHIR Questionnaires and ODM forms through the same command, printing their reports", async () => {
    const standards = path.resolve(fixtures, "..");
    for (const [format, file, slug] of [
      ["fhir", path.join(standards, "fhir/phq-9.questionnaire.json"), "phq-9-fhir"],
      ["odm", path.join(standards, "odm/phq-9.odm.xml"), "phq-9-odm"],
    ] as const) {
      const result = await run([
        "instrument",
        "import",
        "--from",
        format,
        file,
        "--study",
        "101",
        "--slug",
        slug,
      ]);
      expect(result.err, format).toBe("");
      expect(result.code, format).toBe(0);
      expect(result.out, format).toMatch(
        new RegExp(`^Created instrument \\d+ ".+" \\(slug ${slug}\\) of study 101`),
      );
      expect(result.out, format).toMatch(/\nImport report: /);
      const [stored] = await versionsOf((await instrumentOf(101, slug)).id);
      expect(parseSurveyDefinition(stored!.definition).ok, format).toBe(true);
    }
  });
});

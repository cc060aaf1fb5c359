/**
 * `clinro instrument import --from fhir|redcap|odm FILE --study ID`: a standard instrument read
 * by its format's reader and stored as the JSON import stores one (a new instrument; the next
 * definition version of one only when the command names it; "no changes" for the same file
 * again), the import report printed; a refused file stores nothing. On PGlite and PostgreSQL.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { strToU8, zipSync } from "fflate";
import { expect, it } from "vitest";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { eq } from "drizzle-orm";
import { instrumentSubmissions, studies } from "../../server/db/schema.ts";
import { INSTRUMENT_READERS } from "../../server/instrument-import/instrument-readers.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import {
  definitionVersions,
  importedInstrument,
  importInstrument,
  runClinro,
  temporaryFolder,
} from "../support/cli-runs.ts";
import { rowCounts } from "../support/row-counts.ts";
import { chosen } from "../support/submissions.ts";
import {
  newParticipant,
  postSubmissionAsDemoCoordinator,
  servedDefinition,
} from "../support/submitted-study.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/standards/redcap");
const thirdParty = path.resolve(fixtures, "../../third-party");

const inWorkDir = temporaryFolder("clinro-standard-import-");

describeOnEachDatabase("clinro instrument import --from", (api) => {
  const redcapImport = (file: string, studyId: number, options: string[] = []) =>
    importInstrument(api, { from: "redcap", file, studyId, options });

  it("imports the PHQ-9 data dictionary as a new clinician instrument and prints the import report", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const result = await redcapImport(file, 101, ["--name", "PHQ-9"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Created instrument \d+ "PHQ-9" \(slug phq9\) of study 101 with definition version 1/,
    );
    expect(result.out).toContain("Import report: 1 thing not mapped, or mapped in part:");
    expect(result.out).toContain("  record_id: the record id field");
    const created = await importedInstrument(api, 101, "phq9");
    expect(created).toMatchObject({ displayName: "PHQ-9", instrumentType: "CLINRO" });
    const [stored] = await definitionVersions(api, created.id);
    const parsed = parseSurveyDefinition(stored!.definition);
    expect(parsed.ok).toBe(true);
    expect(stored!.definition).toMatchObject({
      scores: [{ id: "phq9_total" }, { id: "phq9_severity" }],
      questions: { phq9_9: { type: "select_one" } },
    });
  });

  it("imports HAM-A, and GAD-7 from an instrument zip; everything mapped says so", async () => {
    const hama = await redcapImport(path.join(fixtures, "hama-data-dictionary.csv"), 101, [
      "--permissions",
      "16",
    ]);
    expect(hama.code).toBe(0);
    expect(hama.out).toContain("hama_severe_notes: a notes field becomes a text question");
    expect(await importedInstrument(api, 101, "hama")).toMatchObject({
      permissions: ["16"],
      displayName: "Hama",
    });

    const zip = inWorkDir("GAD-7.zip");
    const csv = await readFile(path.join(fixtures, "gad7-data-dictionary.csv"));
    await writeFile(
      zip,
      zipSync({ "instrument.csv": new Uint8Array(csv), "OriginID.txt": strToU8("redcap.example.org") }),
    );
    const gad = await redcapImport(zip, 101, ["--slug", "gad-7"]);
    expect(gad.err).toBe("");
    expect(gad.code).toBe(0);
    expect(gad.out).toContain("Import report: everything mapped.");
    const [stored] = await definitionVersions(api, (await importedInstrument(api, 101, "gad-7")).id);
    expect(stored!.definition).toMatchObject({ questions: { gad7_items: { type: "matrix" } } });
  });

  it("says no changes when the identical file is imported again, with or without --new-version-of", async () => {
    const file = inWorkDir("hamd_redcap.csv");
    await copyFile(path.join(fixtures, "hama-data-dictionary.csv"), file);
    const first = await redcapImport(file, 102, ["--slug", "ham-a"]);
    expect(first.code).toBe(0);
    const before = await rowCounts(api.db);
    for (const options of [
      ["--slug", "ham-a"],
      ["--new-version-of", "ham-a"],
    ]) {
      const again = await redcapImport(file, 102, options);
      expect(again.err, options.join(" ")).toBe("");
      expect(again.code, options.join(" ")).toBe(0);
      expect(again.out).toMatch(
        /^No changes: definition version 1 of instrument \d+ "Hama" \(slug ham-a\) of study 102 is already this definition; nothing was imported\./,
      );
    }
    expect(await rowCounts(api.db)).toEqual(before);
    const instrument = await importedInstrument(api, 102, "ham-a");
    expect((await definitionVersions(api, instrument.id)).map((row) => row.versionNumber)).toEqual([1]);
  });

  it("refuses a form named like another instrument of a site's own study, naming it; versions it only when named, showing the changes", async () => {
    // A study of the site's own, as on an empty database: its REDCap "demographics" (27
    // questions) and odmlib's CDASH "Demographics" (11) share only their name.
    await api.db.insert(studies).values({ id: 7104, name: "Site study" });
    const redcap = await redcapImport(path.join(thirdParty, "redcapr/longitudinal-dictionary.csv"), 7104);
    expect(redcap.code).toBe(0);
    expect(redcap.out).toMatch(
      /^Created instrument \d+ "Demographics" \(slug demographics\) of study 7104 with definition version 1, served as json: 27 questions\./,
    );
    const demographics = await importedInstrument(api, 7104, "demographics");
    const odm = path.join(thirdParty, "odmlib/cdash-odm-test.xml");
    const odmImport = (options: string[] = []) =>
      importInstrument(api, { from: "odm", file: odm, studyId: 7104, options });

    const before = await rowCounts(api.db);
    const refused = await odmImport();
    expect(refused.code).toBe(1);
    expect(refused.out).toBe("");
    expect(refused.err).toContain(
      `Study 7104 already has an instrument with the slug "demographics": instrument ${demographics.id} "Demographics", 27 questions in its definition version 1.`,
    );
    expect(refused.err).toContain("--new-version-of demographics");
    expect(refused.err).toContain("nothing was imported");

    const dryRun = await odmImport(["--new-version-of", "demographics", "--dry-run"]);
    expect(dryRun.err).toBe("");
    expect(dryRun.code).toBe(0);
    expect(dryRun.out).toContain("Definition version 2 (11 questions) changes from version 1:");
    expect(dryRun.out).toMatch(/\n {2}question first_name "First Name" removed\n/);
    expect(dryRun.out).toMatch(/\n {2}question \S+ "Birth Year" added\n/);
    expect(dryRun.out).toContain(
      `Dry run: would add it to instrument ${demographics.id} "Demographics" (slug demographics) of study 7104; nothing was imported.`,
    );
    const newDryRun = await odmImport(["--slug", "cdash-demographics", "--dry-run"]);
    expect(newDryRun.out).toMatch(
      /^Dry run: would create instrument "Demographics" \(slug cdash-demographics\) of study 7104 with 11 questions; nothing was imported\./,
    );
    expect(await rowCounts(api.db)).toEqual(before);
    expect(await definitionVersions(api, demographics.id)).toHaveLength(1);

    const separate = await odmImport(["--slug", "cdash-demographics"]);
    expect(separate.code).toBe(0);
    expect((await importedInstrument(api, 7104, "cdash-demographics")).id).not.toBe(demographics.id);
    const named = await odmImport(["--new-version-of", "demographics"]);
    expect(named.code).toBe(0);
    expect(named.out).toContain("Definition version 2 (11 questions) changes from version 1:");
    expect(named.out).toContain(
      `Added definition version 2 to instrument ${demographics.id} "Demographics" (slug demographics) of study 7104, served as json.`,
    );
    expect((await definitionVersions(api, demographics.id)).map((row) => row.versionNumber)).toEqual([1, 2]);

    const nowhere = await odmImport(["--new-version-of", "vital-signs"]);
    expect(nowhere).toMatchObject({
      code: 1,
      err: expect.stringContaining(
        'Study 7104 has no instrument with the slug "vital-signs" to add a version to',
      ),
    });
    const both = await odmImport(["--new-version-of", "demographics", "--slug", "other"]);
    expect(both).toMatchObject({ code: 1, err: expect.stringContaining("name two instruments") });
  });

  it("imports the form named with --form from a dictionary holding several", async () => {
    const phq = await readFile(path.join(fixtures, "phq9-data-dictionary.csv"), "utf8");
    const gadRows = (await readFile(path.join(fixtures, "gad7-data-dictionary.csv"), "utf8"))
      .split("\n")
      .slice(1);
    const file = inWorkDir("project.csv");
    await writeFile(file, `${phq.trimEnd()}\n${gadRows.join("\n")}`);
    const result = await redcapImport(file, 101, ["--form", "gad7", "--slug", "gad7-from-project"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("form phq9: not imported");
    const [stored] = await definitionVersions(
      api,
      (await importedInstrument(api, 101, "gad7-from-project")).id,
    );
    expect(stored!.definition).toMatchObject({ order: ["gad7_items", "gad7_difficulty"] });
  });

  it("takes a submission of an imported PHQ-9, the server scoring it as the instrument does", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const imported = await redcapImport(file, 101, ["--slug", "phq9-scored"]);
    expect(imported.code).toBe(0);
    const instrument = await importedInstrument(api, 101, "phq9-scored");
    const definition = await servedDefinition(
      api,
      await api.signIn("staff3@demo.test"),
      instrument.id,
      "phq9-scored",
    );
    const participantId = await newParticipant(api, { fname: "Imported", lname: "Scale" });

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
    const receipt = await postSubmissionAsDemoCoordinator(api, {
      participantId,
      instrumentId: instrument.id,
      form: definition,
      answers,
      headers: { version: "010" },
    });
    expect(receipt.scores).toEqual([
      expect.objectContaining({ id: "phq9_total", final_value: 12 }),
      expect.objectContaining({ id: "phq9_severity", final_value: 2 }),
    ]);
  });

  it("takes a REDCap number_2dp answer of 2.25 as 2.25, and a plain number's as typed", async () => {
    const file = path.join(thirdParty, "redcapr/validation-types-1-dictionary.csv");
    expect((await redcapImport(file, 101, ["--slug", "validation-types"])).code).toBe(0);
    const instrument = await importedInstrument(api, 101, "validation-types");
    const definition = await servedDefinition(
      api,
      await api.signIn("staff3@demo.test"),
      instrument.id,
      "validation-types",
    );
    const participantId = await newParticipant(api, { fname: "Decimal", lname: "Places" });
    const receipt = await postSubmissionAsDemoCoordinator(api, {
      participantId,
      instrumentId: instrument.id,
      form: definition,
      answers: {
        v_number_2dp: [{ label: "2.25", value: 2.25 }],
        v_number: [{ label: "2.123456", value: 2.123456 }],
      },
    });
    const [stored] = await api.db
      .select({ payload: instrumentSubmissions.payload })
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.id, receipt.id));
    expect(JSON.stringify(stored!.payload)).toContain('"value":2.25');
    expect(JSON.stringify(stored!.payload)).toContain('"value":2.123456');
  });

  it("refuses a file its reader cannot read with exit code 1 and the reason, storing nothing", async () => {
    const notDictionary = inWorkDir("participants.csv");
    await writeFile(notDictionary, "name,email\nAda,ada@example.org\n");
    const missing = inWorkDir("missing.csv");
    const zip = inWorkDir("empty.zip");
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
      const result = await runClinro(api, ["instrument", "import", "--from", "redcap", ...args, ...study]);
      expect(result.code, reason).toBe(1);
      expect(result.err, reason).toContain(reason);
      expect(result.err, reason).toContain("nothing was imported");
      expect(result.out, reason).toBe("");
    }
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("says which formats exist, that --form is REDCap's, and which formats cannot be imported yet", async () => {
    const file = path.join(fixtures, "phq9-data-dictionary.csv");
    const unknown = await importInstrument(api, { from: "spss", file, studyId: 101 });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--from must be one of fhir, redcap, odm; not "spss"');
    const form = await importInstrument(api, {
      from: "fhir",
      file,
      studyId: 101,
      options: ["--form", "phq9"],
    });
    expect(form.code).toBe(2);
    expect(form.err).toContain("--form applies to REDCap dictionaries only");
    const before = await rowCounts(api.db);
    const reader = INSTRUMENT_READERS.odm;
    delete INSTRUMENT_READERS.odm;
    try {
      const result = await importInstrument(api, { from: "odm", file, studyId: 101 });
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
      const result = await importInstrument(api, {
        from: format,
        file,
        studyId: 101,
        options: ["--slug", slug],
      });
      expect(result.err, format).toBe("");
      expect(result.code, format).toBe(0);
      expect(result.out, format).toMatch(
        new RegExp(`^Created instrument \\d+ ".+" \\(slug ${slug}\\) of study 101`),
      );
      expect(result.out, format).toMatch(/\nImport report: /);
      const [stored] = await definitionVersions(api, (await importedInstrument(api, 101, slug)).id);
      expect(parseSurveyDefinition(stored!.definition).ok, format).toBe(true);
    }
  });
});

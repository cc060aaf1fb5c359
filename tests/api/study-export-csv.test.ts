/**
 * The CSV export: a zip with one CSV per instrument definition version in REDCap's
 * layout (a column per question, matrix rows, multiple-field fields and select-multiple choices
 * in their own columns, choice codes, the server's final scores), a codebook, the consent
 * sessions and their signatures; checked against submissions made through the real submission
 * call and the demo's consents in the database. clinro export writes the same files.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { valueEntry } from "../../core/survey-engine/answer-values.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import {
  auditLog,
  consentSignatures,
  consentSignings,
  instrumentSubmissions,
  participants,
} from "../../server/db/schema.ts";
import { STUDY_EXPORT_ACTION } from "../../server/study-export/export-audit.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { chosen } from "../support/submissions.ts";
import {
  coordinatorSubmittingForNewParticipant,
  everySelectOneAnswered,
} from "../support/submitted-study.ts";

type Rows = Record<string, string>[];

/** The zip's CSV files as text (the signature images are checked on their own). */
function unzipText(payload: Uint8Array): Map<string, string> {
  return new Map(
    Object.entries(unzipSync(payload))
      .filter(([name]) => name.endsWith(".csv"))
      .map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
}

function rowsOf(text: string | undefined): Rows {
  if (text === undefined) throw new Error("no such file in the zip");
  return parse(text, { columns: true, skip_empty_lines: true }) as Rows;
}

describeOnEachDatabase("the CSV export", (api) => {
  const ids = {
    kitchen: 0,
    hamd: 0,
    coordinator: 0,
    participant: 0,
    kitchenSubmission: 0,
    hamdSubmission: 0,
  };
  let sink: SurveyDefinition | undefined;
  let files = new Map<string, string>();
  let imageNames: string[] = [];
  let tokens = { coordinator: "" };
  let workDir = "";
  const subjectId = `CSV-${randomUUID().slice(0, 8)}`;
  const formulaText = '=HYPERLINK("http://attacker.example","see")';
  const quotedText = 'Said "fine", then left';

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "clinro-export-"));
    const study = await coordinatorSubmittingForNewParticipant(api, {
      fname: "Cee",
      lname: "Esvee",
      subjectId,
    });
    ids.kitchen = study.kitchenSink.id;
    ids.hamd = study.hamd.id;
    ids.coordinator = study.coordinatorId;
    ids.participant = study.participantId;
    tokens = {
      coordinator: study.coordinatorToken,
    };
    sink = study.kitchenSink.definition;
    // Every answer type the kitchen sink has but photos (they need an upload); mood7 is left out.
    ids.kitchenSubmission = await study.submit(study.kitchenSink, {
      color: [chosen(sink, "color", "red")],
      symptoms: [chosen(sink, "symptoms", "headache"), chosen(sink, "symptoms", "fatigue")],
      notes: [valueEntry(formulaText)],
      weight: [valueEntry(70.5)],
      age: [valueEntry(30)],
      mood5: [chosen(sink, "mood5", "l5_4")],
      wake_time: [valueEntry("2026-11-22T07:15:00+01:00")],
      bed_time: [valueEntry("2026-11-22T22:45:00+01:00")],
      visit_date: [valueEntry("2026-11-20T00:00:00.000Z")],
      visit_datetime: [valueEntry("2026-11-29T13:30:00.000Z")],
      pain: [valueEntry(5)],
      vitals: [
        { ...valueEntry("120/80"), question: "blood_pressure" },
        { ...valueEntry(72), question: "heart_rate" },
        { ...valueEntry(36.6), question: "temperature" },
      ],
      sleep_matrix: [
        { ...chosen(sink, "sleep_matrix", "often"), question: "fall_asleep" },
        { ...chosen(sink, "sleep_matrix", "never"), question: "wake_night" },
      ],
      drawing: [valueEntry("data:image/png;base64,iVBORw0KGgo=")],
      daily_feeling: [chosen(sink, "daily_feeling", "good")],
      daily_energy: [valueEntry(6)],
      daily_comment: [valueEntry(quotedText)],
    });
    ids.hamdSubmission = await study.submit(
      study.hamd,
      everySelectOneAnswered(study.hamd.definition, (_id, index) => (index % 2 === 0 ? "c1" : "c2")),
    );

    const response = await api.request("GET", "/control/studies/101/export?format=csv&site_id=1011", {
      token: tokens.coordinator,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    files = unzipText(new Uint8Array(response.rawPayload));
    imageNames = Object.keys(unzipSync(new Uint8Array(response.rawPayload))).filter(
      (name) => !name.endsWith(".csv"),
    );
  });

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("holds a codebook, one CSV per instrument definition version (no announcement), the two consent files and the signature images", () => {
    expect([...files.keys()].sort()).toEqual(
      [
        "adverse-events-review_v1.csv",
        "cgi-s_v1.csv",
        "codebook.csv",
        "consent_signatures.csv",
        "consents.csv",
        "ham-d-17_v1.csv",
        "kitchen-sink_v1.csv",
        "sleep-diary-review_v1.csv",
      ].sort(),
    );
    for (const text of files.values()) {
      // RFC 4180: CRLF line ends.
      expect(text.endsWith("\r\n")).toBe(true);
      expect(text.replaceAll("\r\n", "").includes("\n")).toBe(false);
    }
    // The demo's drawn signatures: each image named by its row, in its folder.
    const named = rowsOf(files.get("consent_signatures.csv"))
      .map((row) => row.image_file!)
      .filter((name) => name !== "");
    expect(named.length).toBeGreaterThan(0);
    expect(imageNames.sort()).toEqual(named.sort());
    for (const name of imageNames) expect(name).toMatch(/^consent_signature_images\/signing-\d+_\w+\.png$/);
  });

  it("writes a kitchen-sink submission as REDCap does: choice codes, checkbox and matrix columns, the final score", async () => {
    const header = files.get("kitchen-sink_v1.csv")!.split("\r\n")[0]!.split(",");
    expect(header.slice(0, 10)).toEqual([
      "submission_id",
      "participant_id",
      "subject_id",
      "site_id",
      "site_label",
      "completed_by_user_id",
      "completed_by_name",
      "device_completed_at",
      "device_started_at",
      "server_received_at",
    ]);
    // No columns for what takes no answer (intro, prompts, the pdf).
    for (const none of ["intro", "red_note", "leaflet", "notes_missing", "pain_severe", "combined_note"]) {
      expect(header).not.toContain(none);
    }
    expect(header).toEqual(
      expect.arrayContaining([
        "symptoms___headache",
        "symptoms___nausea",
        "symptoms___fatigue",
        "vitals___blood_pressure",
        "vitals___heart_rate",
        "vitals___temperature",
        "sleep_matrix___fall_asleep",
        "sleep_matrix___wake_night",
        "score_wellbeing",
      ]),
    );
    expect(header.at(-1)).toBe("score_wellbeing");

    const row = rowsOf(files.get("kitchen-sink_v1.csv")).find(
      (candidate) => candidate.submission_id === String(ids.kitchenSubmission),
    );
    const [stored] = await api.db
      .select()
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.id, ids.kitchenSubmission));
    expect(row).toMatchObject({
      participant_id: String(ids.participant),
      subject_id: subjectId,
      site_id: "1011",
      site_label: "Boston Clinical Research Center",
      completed_by_user_id: String(ids.coordinator),
      completed_by_name: "Carmen Ortiz",
      device_completed_at: stored!.completedAt.toISOString(),
      device_started_at: new Date(String(stored!.payload.start_time)).toISOString(),
      server_received_at: stored!.createdAt.toISOString(),
      color: "red",
      symptoms___headache: "1",
      symptoms___nausea: "0",
      symptoms___fatigue: "1",
      // A text that a spreadsheet would run is written as text.
      notes: `'${formulaText}`,
      weight: "70.5",
      age: "30",
      mood5: "l5_4",
      // Not shown... or skipped: empty.
      mood7: "",
      photos: "",
      wake_time: "2026-11-22T07:15:00+01:00",
      visit_date: "2026-11-20T00:00:00.000Z",
      pain: "5",
      vitals___blood_pressure: "120/80",
      vitals___heart_rate: "72",
      vitals___temperature: "36.6",
      sleep_matrix___fall_asleep: "often",
      sleep_matrix___wake_night: "never",
      drawing: "drawing",
      daily_feeling: "good",
      daily_energy: "6",
      daily_comment: quotedText,
      score_wellbeing: String(4 + 6 + 5),
    });
    expect(files.get("kitchen-sink_v1.csv")).toContain(`"${quotedText.replaceAll('"', '""')}"`);
    expect(files.get("kitchen-sink_v1.csv")).not.toContain("data:image");
  });

  it("writes every submission of the site once, with the server's scores", async () => {
    const stored = await api.db
      .select({
        id: instrumentSubmissions.id,
        instrumentId: instrumentSubmissions.instrumentId,
        scores: instrumentSubmissions.scores,
      })
      .from(instrumentSubmissions)
      .innerJoin(participants, eq(participants.id, instrumentSubmissions.participantId))
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)));
    const written = [...files.entries()]
      .filter(([name]) => /_v\d+\.csv$/.test(name))
      .flatMap(([, text]) => rowsOf(text).map((row) => Number(row.submission_id)));
    expect(written.sort()).toEqual(stored.map((row) => row.id).sort());
    const hamd = rowsOf(files.get("ham-d-17_v1.csv")).find(
      (row) => row.submission_id === String(ids.hamdSubmission),
    )!;
    const total = (
      stored.find((row) => row.id === ids.hamdSubmission)!.scores as { id: string; final_value: number }[]
    )[0]!;
    expect(hamd.score_total).toBe(String(total.final_value));
    expect(hamd.hamd_01).toBe("c1");
    expect(hamd.hamd_02).toBe("c2");
  });

  it("describes every column in the codebook: labels, choices as code, label | code, label, their scores, the formulas", () => {
    const codebook = rowsOf(files.get("codebook.csv"));
    const entry = (file: string, column: string) =>
      codebook.find((row) => row.file === file && row.column === column);
    const color = sink!.questions.color!;
    const colorCodes = color.choices_order ?? Object.keys(color.choices!);
    expect(entry("kitchen-sink_v1.csv", "color")).toEqual({
      file: "kitchen-sink_v1.csv",
      column: "color",
      question_id: "color",
      label: color.label,
      type: "select_one",
      choices: colorCodes.map((code) => `${code}, ${color.choices![code]!.label}`).join(" | "),
      choice_scores: colorCodes
        .filter((code) => color.choices![code]!.score_value !== undefined)
        .map((code) => `${code}=${color.choices![code]!.score_value}`)
        .join(" | "),
      score_formula: "",
    });
    expect(entry("kitchen-sink_v1.csv", "symptoms___nausea")).toMatchObject({
      question_id: "symptoms",
      label: `${sink!.questions.symptoms!.label}: ${sink!.questions.symptoms!.choices!.nausea!.label}`,
      choices: "1, Checked | 0, Unchecked",
    });
    expect(entry("kitchen-sink_v1.csv", "sleep_matrix___fall_asleep")).toMatchObject({
      question_id: "sleep_matrix",
      type: "matrix",
      choices: expect.stringContaining("often, "),
    });
    expect(entry("kitchen-sink_v1.csv", "score_wellbeing")).toMatchObject({
      type: "score",
      label: "Wellbeing",
      score_formula: "sum({mood5}, {daily_energy}) + {pain}",
    });
    expect(entry("ham-d-17_v1.csv", "hamd_01")!.choice_scores).toMatch(/^c0=0 \| c1=1 \| c2=2/);
    expect(entry("ham-d-17_v1.csv", "subject_id")).toMatchObject({ type: "identifier" });
    expect(entry("consent_signatures.csv", "meaning")).toBeDefined();
    // Every column of every file is described, and nothing else.
    for (const [name, text] of files) {
      if (name === "codebook.csv") continue;
      const columns = text.split("\r\n")[0]!.split(",");
      expect(
        codebook.filter((row) => row.file === name).map((row) => row.column),
        name,
      ).toEqual(columns);
    }
  });

  it("lists the site's consent sessions and every signature with its manifestation", async () => {
    const sessions = await api.db
      .select({ id: consentSignings.id, userId: consentSignings.userId, version: consentSignings.version })
      .from(consentSignings)
      .innerJoin(participants, eq(participants.id, consentSignings.participantId))
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)));
    expect(sessions.length).toBeGreaterThan(0);
    const consents = rowsOf(files.get("consents.csv"));
    expect(consents.map((row) => Number(row.signing_id)).sort()).toEqual(
      sessions.map((row) => row.id).sort(),
    );
    const first = consents.find((row) => Number(row.signing_id) === sessions[0]!.id)!;
    expect(first).toMatchObject({
      user_id: String(sessions[0]!.userId),
      consent_version: String(sessions[0]!.version),
    });
    expect(first.status).toMatch(
      /^(awaiting_participant|awaiting_clinro|awaiting_witness|complete|declined)$/,
    );
    expect(first.consent_title).not.toBe("");

    const signatures = await api.db
      .select()
      .from(consentSignatures)
      .innerJoin(consentSignings, eq(consentSignings.id, consentSignatures.signingId))
      .innerJoin(participants, eq(participants.id, consentSignings.participantId))
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
      .orderBy(asc(consentSignatures.id));
    const written = rowsOf(files.get("consent_signatures.csv"));
    expect(written).toHaveLength(signatures.length);
    const signature = signatures[0]!.consent_signatures;
    expect(written.find((row) => row.hash === signature.hash)).toEqual({
      signing_id: String(signature.signingId),
      participant_id: String(signature.participantId),
      subject_id: expect.any(String),
      consent_id: String(signature.consentId),
      consent_version: String(signature.version),
      question_id: signature.questionId,
      role: signature.role,
      printed_name: signature.printedName,
      meaning: signature.meaning,
      signature_type: signature.signatureType,
      image_file: expect.any(String),
      signer_user_id: signature.signerUserId === null ? "" : String(signature.signerUserId),
      captured_at: signature.capturedAt,
      received_at: signature.receivedAt.toISOString(),
      time_zone: signature.timeZone,
      hash: signature.hash,
    });
  });

  it("clinro export writes the same files, records itself without a user, and refuses a file that exists", async () => {
    const out = path.join(workDir, "study-101.zip");
    const lines: string[] = [];
    const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const exportsRecorded = async () =>
      (
        await api.db
          .select({ count: sql<number>`count(*)::int` })
          .from(auditLog)
          .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
      )[0]!.count;
    const before = await exportsRecorded();
    const code = await runCli(
      ["export", "--study", "101", "--format", "csv", "--site", "1011", "--out", out],
      output,
      {
        database: api.handle,
      },
    );
    expect(code, lines.join("\n")).toBe(0);
    const written = unzipText(new Uint8Array(await readFile(out)));
    expect([...written.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [name, text] of files) expect(written.get(name), name).toBe(text);
    const [row] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, STUDY_EXPORT_ACTION))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(row).toMatchObject({
      actorUserId: null,
      rowKey: { id: 101 },
      details: { via: "command", format: "csv", site_ids: [1011], instrument_ids: null },
    });

    // A file that exists is left alone, and nothing is recorded.
    await writeFile(path.join(workDir, "taken.zip"), "keep me");
    lines.length = 0;
    expect(
      await runCli(
        ["export", "--study", "101", "--format", "csv", "--out", path.join(workDir, "taken.zip")],
        output,
        {
          database: api.handle,
        },
      ),
    ).toBe(1);
    expect(lines.join("\n")).toContain("already exists");
    expect(await readFile(path.join(workDir, "taken.zip"), "utf8")).toBe("keep me");

    // Bad arguments and a site of another study: refused, named, nothing recorded.
    lines.length = 0;
    expect(
      await runCli(["export", "--study", "101", "--format", "xls"], output, { database: api.handle }),
    ).toBe(2);
    expect(lines.join("\n")).toContain("--format must be one of csv, odm, fhir");
    lines.length = 0;
    expect(
      await runCli(
        [
          "export",
          "--study",
          "101",
          "--format",
          "csv",
          "--site",
          "1021",
          "--out",
          path.join(workDir, "x.zip"),
        ],
        output,
        {
          database: api.handle,
        },
      ),
    ).toBe(1);
    expect(lines.join("\n")).toContain("1021 is not a site of study 101");
    expect(await exportsRecorded()).toBe(before + 1);
  });
});

/**
 * The CSV writer on a hand-built ExportSource: what the database tests cannot easily make (two
 * definition versions of one instrument, a version nobody answered, a skipped select-multiple,
 * several photos, an unknown question type) and the zip's streaming.
 */
import { strFromU8, unzipSync } from "fflate";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import { surveyDefinition, type SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import type {
  ExportConsentSigning,
  ExportInstrumentVersion,
  ExportSignatureImage,
  ExportSource,
  ExportSubmission,
} from "../export-source.ts";
import { writeCsvExport } from "./write-csv-export.ts";

const definition = (questions: Record<string, unknown>, scores: unknown[] = []): SurveyDefinition =>
  surveyDefinition.parse({
    id: "form",
    type: "CLINRO",
    order: Object.keys(questions),
    questions: Object.fromEntries(
      Object.entries(questions).map(([id, question]) => [id, { id, ...(question as object) }]),
    ),
    scores,
  });

const v1 = definition(
  {
    symptoms: {
      type: "select_multiple",
      label: "Symptoms",
      choices: { a: { label: "Ache" }, b: { label: "Burn" } },
      choices_order: ["a", "b"],
    },
    photos: { type: "image_capture", label: "Photos" },
    odd: { type: "hologram", label: "A type from the future" },
  },
  [{ id: "count", name: "Count", formula: "{symptoms}" }],
);
const v2 = definition({ note: { type: "text", label: "Note" } });

const version = (versionNumber: number, form: SurveyDefinition): ExportInstrumentVersion => ({
  instrumentId: 7,
  slug: "form",
  name: "Form",
  instrumentType: "CLINRO",
  versionNumber,
  definition: form,
});

const record = (
  id: string,
  answer: AnswerRecord["answer"],
  state: AnswerRecord["state"] = "ANSWERED",
): AnswerRecord => ({
  id,
  label: id,
  name: id,
  type: "x",
  required: false,
  state,
  answer,
});

const submission = (id: number, versionNumber: number, answers: AnswerRecord[]): ExportSubmission => ({
  id,
  instrumentId: 7,
  versionNumber,
  participant: { id: 1, subjectId: "S-1", siteId: 11 },
  completedBy: 5,
  deviceCompletedAt: new Date("2026-11-27T09:00:00Z"),
  receivedAt: new Date("2026-11-27T09:00:05Z"),
  deviceStartedAt: "2026-11-27T09:50:00+01:00",
  browserInfo: "test",
  answers,
  scores: [{ id: "count", name: "Count", formula: "{symptoms}", final_value: 2 }],
});

function sourceOf(
  submissions: ExportSubmission[],
  versions = [version(1, v1), version(2, v2), version(3, v2)],
): ExportSource {
  return {
    scope: { studyId: 1 },
    study: { id: 1, name: "Study" },
    sites: [{ id: 11, label: "Site, the first", treeLevel: 4, isVirtual: false, retired: false }],
    users: [{ id: 5, email: "c@x.test", name: "Carla" }],
    instrumentVersions: versions,
    consentVersions: [],
    async *submissions() {
      yield* submissions;
    },
    async *consentSignings(): AsyncGenerator<ExportConsentSigning> {},
  };
}

async function zipOf(source: ExportSource) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of writeCsvExport(source)) chunks.push(chunk);
  return unzipSync(Buffer.concat(chunks));
}

async function filesOf(source: ExportSource) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of writeCsvExport(source)) chunks.push(chunk);
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return {
    chunks: chunks.length,
    files: new Map(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)])),
  };
}

const rows = (text: string | undefined) => parse(text ?? "", { columns: true }) as Record<string, string>[];

describe("writeCsvExport", () => {
  it("writes one file per definition version, a version nobody answered with its header only", async () => {
    const { files } = await filesOf(
      sourceOf([
        submission(1, 1, [record("symptoms", [{ label: "Ache", value: "a", choice_id: "a" }])]),
        submission(2, 1, [record("symptoms", [], "SKIPPED")]),
        submission(3, 2, [record("note", [{ label: "", value: "hello" }])]),
      ]),
    );
    expect([...files.keys()]).toEqual([
      "codebook.csv",
      "form_v1.csv",
      "form_v2.csv",
      "form_v3.csv",
      "consents.csv",
      "consent_signatures.csv",
    ]);
    expect(files.get("form_v3.csv")).toBe(
      "submission_id,participant_id,subject_id,site_id,site_label,completed_by_user_id,completed_by_name,device_completed_at,device_started_at,server_received_at,note\r\n",
    );
    const [first, skipped] = rows(files.get("form_v1.csv"));
    expect(first).toMatchObject({
      site_label: "Site, the first",
      completed_by_name: "Carla",
      device_started_at: "2026-11-27T08:50:00.000Z",
      symptoms___a: "1",
      symptoms___b: "0",
      score_count: "2",
    });
    // Skipped: neither chosen nor not chosen.
    expect(skipped).toMatchObject({ symptoms___a: "", symptoms___b: "" });
    expect(rows(files.get("form_v2.csv"))).toEqual([
      expect.objectContaining({ submission_id: "3", note: "hello" }),
    ]);
    expect(rows(files.get("consents.csv"))).toEqual([]);
  });

  it("joins several photos' file names, keeps an unknown type's values, and describes both", async () => {
    const { files } = await filesOf(
      sourceOf([
        submission(1, 1, [
          record("photos", [
            { label: "", value: "p1.jpg" },
            { label: "", value: "p2.jpg" },
          ]),
          record("odd", [{ label: "", value: 42 }]),
        ]),
      ]),
    );
    expect(rows(files.get("form_v1.csv"))[0]).toMatchObject({ photos: "p1.jpg|p2.jpg", odd: "42" });
    const codebook = rows(files.get("codebook.csv"));
    expect(codebook.find((row) => row.column === "odd")).toMatchObject({
      type: "hologram",
      label: "A type from the future",
    });
    expect(codebook.find((row) => row.column === "score_count")).toMatchObject({
      score_formula: "{symptoms}",
    });
  });

  it("adds each held signature image under a safe name its row gives, and none for the others", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
    const signature = (questionId: string, signatureType: string, image?: ExportSignatureImage) => ({
      questionId,
      role: "participant",
      meaning: "Participant consent",
      printedName: "Ann",
      signatureType,
      signerUserId: null,
      capturedAt: "2026-11-27T10:00:00+01:00",
      receivedAt: new Date("2026-11-27T09:00:05Z"),
      timeZone: "Europe/Paris",
      hash: questionId,
      ...(image ? { image } : {}),
    });
    const signing: ExportConsentSigning = {
      id: 31,
      consentId: 4,
      version: 1,
      participant: { id: 1, subjectId: "S-1", siteId: 11 },
      userId: 5,
      endpoint: "clinro",
      deviceCompletedAt: new Date("2026-11-27T09:00:00Z"),
      receivedAt: new Date("2026-11-27T09:00:05Z"),
      records: [],
      signatures: [
        signature("drawn", "draw", { extension: "png", bytes: () => Promise.resolve(png) }),
        signature("../odd id", "image", { extension: "svg", bytes: () => Promise.resolve(svg) }),
        // An upload whose bytes no server holds, and a typed name.
        signature("lost", "camera"),
        signature("typed", "text"),
      ],
      status: "complete",
    };
    const zip = await zipOf({
      ...sourceOf([]),
      async *consentSignings() {
        yield signing;
      },
    });
    const named = rows(strFromU8(zip["consent_signatures.csv"]!)).map((row) => [
      row.question_id,
      row.image_file,
    ]);
    expect(named).toEqual([
      ["drawn", "consent_signature_images/signing-31_drawn.png"],
      ["../odd id", "consent_signature_images/signing-31____odd_id.svg"],
      ["lost", ""],
      ["typed", ""],
    ]);
    expect(zip["consent_signature_images/signing-31_drawn.png"]).toEqual(png);
    expect(zip["consent_signature_images/signing-31____odd_id.svg"]).toEqual(svg);
    expect(Object.keys(zip).filter((name) => name.startsWith("consent_signature_images/"))).toHaveLength(2);
  });

  it("streams: a large export comes out in many chunks", async () => {
    const many = Array.from({ length: 20_000 }, (_, index) =>
      submission(index + 1, 2, [
        record("note", [{ label: "", value: `note number ${index} ${"x".repeat(index % 50)}` }]),
      ]),
    );
    const { chunks, files } = await filesOf(sourceOf(many));
    expect(chunks).toBeGreaterThan(10);
    expect(rows(files.get("form_v2.csv"))).toHaveLength(20_000);
  });

  it("refuses a submission that arrives outside its version's group rather than dropping it", async () => {
    const source = sourceOf([submission(1, 2, []), submission(2, 1, [])]);
    await expect(filesOf(source)).rejects.toThrow(/Submission 2 arrived out of its version's order/);
  });
});

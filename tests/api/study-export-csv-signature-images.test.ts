/**
 * The CSV export's signature images: a drawn and a photographed signature, uploaded and signed
 * through the real calls in a study of its own (two sites, the example study's consent), come
 * out of the zip as the exact bytes the database holds, each named from its row of
 * consent_signatures.csv (image_file) and described in the codebook; a typed signature names no
 * file, and a site outside the export's scope gives none of its images.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, desc, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { consentDefinitionResponse } from "../../core/contracts/consent-schemas.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { importConsent } from "../../server/consents/consent-definitions.ts";
import {
  participants,
  sitePermissions,
  sites,
  studies,
  studyPermissions,
  uploadedFileContents,
  uploadedFiles,
} from "../../server/db/schema.ts";
import type { ExportScope } from "../../server/study-export/export-source.ts";
import { readExportSource } from "../../server/study-export/read-export-source.ts";
import { writeCsvExport } from "../../server/study-export/csv/write-csv-export.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { signaturePng } from "../support/signature-png.ts";
import { testImage } from "../support/test-images.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CONSENT_FILE = path.join(root, "docs/example-study/gad118-main-consent.json");
const STUDY_ID = 401;
const SITE = { north: 4011, south: 4012 };
const CAPTURED_AT = "2026-11-22T09:15:00-05:00";

type Rows = Record<string, string>[];
const rowsOf = (bytes: Uint8Array | undefined): Rows => {
  if (bytes === undefined) throw new Error("no such file in the zip");
  return parse(strFromU8(bytes), { columns: true, skip_empty_lines: true }) as Rows;
};

async function exportedZip(api: ApiHarness, scope: ExportScope) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of writeCsvExport(await readExportSource(api.db, scope))) chunks.push(chunk);
  return unzipSync(Buffer.concat(chunks));
}

describeOnEachDatabase("the CSV export's signature images", (api) => {
  let token = "";
  let consentId = 0;
  const subjects = { drawn: "N-001", photographed: "N-002", typed: "N-003", south: "S-001" };
  const participantIds: Record<keyof typeof subjects, number> = {
    drawn: 0,
    photographed: 0,
    typed: 0,
    south: 0,
  };

  async function upload(participantId: number, bytes: Uint8Array, type: string, extension: string) {
    const fileName = `consent_${participantId}_participant_signature_${Date.now()}.${extension}`;
    const form = new FormData();
    form.set("upload_file", new Blob([Buffer.from(bytes)], { type }), fileName);
    for (const [name, value] of Object.entries({
      file_name: fileName,
      platform: "clinro",
      module_name: "consent",
      participant_id: String(participantId),
    })) {
      form.set(name, value);
    }
    const request = new Request("http://localhost/", { method: "POST", body: form });
    const response = await api.request("POST", "/control/file/upload", {
      token,
      body: Buffer.from(await request.arrayBuffer()),
      headers: { "content-type": request.headers.get("content-type")!, "idempotency-key": randomUUID() },
    });
    expect(response.statusCode, response.body).toBe(200);
    return fileName;
  }

  /** The participant's session: agreed, signed as given (drawn, photographed or typed). */
  async function sign(participantId: number, signature: Pick<AnswerEntry, "value" | "signature_type">) {
    const served = await api.request(
      "GET",
      `/control/v2/clinro/consent?consent_id=${consentId}&version=1&ptp_id=${participantId}`,
      { token },
    );
    expect(served.statusCode, served.body).toBe(200);
    const { definition, consent_id, consent_version } = consentDefinitionResponse.parse(served.json());
    const at = new Date("2026-11-22T14:15:00.000Z");
    const agree = definition.questions.decision!.choices!.agree!;
    const records = [
      makeRecord(
        definition.questions.decision!,
        [{ label: agree.label, value: "agree", choice_id: "agree" }],
        at,
      ),
      makeRecord(
        definition.questions.participant_signature!,
        [
          {
            label: "Nora North",
            question: "participant_signature",
            signed_date: CAPTURED_AT,
            ...signature,
          },
        ],
        at,
      ),
    ];
    const response = await api.request("POST", `/control/v2/clinro/participant/${participantId}/consent`, {
      token,
      body: {
        consent_id,
        consent_version,
        records,
        completion: "2026-11-22T14:20:00.000Z",
        browser_info: "vitest",
      },
      headers: { version: "010", "idempotency-key": randomUUID() },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** The bytes the database holds for the participant's latest consent upload of that name. */
  async function storedBytes(participantId: number, fileName: string) {
    const [row] = await api.db
      .select({ content: uploadedFileContents.content })
      .from(uploadedFiles)
      .innerJoin(uploadedFileContents, eq(uploadedFileContents.fileId, uploadedFiles.id))
      .where(and(eq(uploadedFiles.participantId, participantId), eq(uploadedFiles.fileName, fileName)))
      .orderBy(desc(uploadedFiles.id))
      .limit(1);
    return row!.content;
  }

  const fileNames = { drawn: "", photographed: "" };

  beforeAll(async () => {
    await api.db.insert(studies).values({ id: STUDY_ID, name: "Signature export study" });
    await api.db.insert(sites).values([
      { id: SITE.north, studyId: STUDY_ID, label: "North clinic", treeLevel: 4 },
      { id: SITE.south, studyId: STUDY_ID, label: "South clinic", treeLevel: 4 },
    ]);
    for (const [key, subjectId] of Object.entries(subjects) as [keyof typeof subjects, string][]) {
      const [row] = await api.db
        .insert(participants)
        .values({
          studyId: STUDY_ID,
          siteId: key === "south" ? SITE.south : SITE.north,
          fname: "Nora",
          lname: key,
          subjectId,
        })
        .returning({ id: participants.id });
      participantIds[key] = row!.id;
    }
    // Offered to every participant the study has.
    const imported = await importConsent(api.db, {
      studyId: STUDY_ID,
      json: JSON.parse(await readFile(CONSENT_FILE, "utf8")) as unknown,
    });
    consentId = imported.consentId;
    const coordinator = await api.createUser({ studies: {} });
    await api.db.insert(studyPermissions).values({ userId: coordinator.id, studyId: STUDY_ID, role: "16" });
    await api.db.insert(sitePermissions).values([
      { userId: coordinator.id, siteId: SITE.north },
      { userId: coordinator.id, siteId: SITE.south },
    ]);
    token = await api.signIn(coordinator.username);

    fileNames.drawn = await upload(participantIds.drawn, signaturePng(), "image/png", "png");
    await sign(participantIds.drawn, { value: fileNames.drawn, signature_type: "draw" });
    fileNames.photographed = await upload(
      participantIds.photographed,
      await testImage("jpeg", 320, 120, 3),
      "image/jpeg",
      "jpg",
    );
    await sign(participantIds.photographed, { value: fileNames.photographed, signature_type: "camera" });
    await sign(participantIds.typed, { value: "Nora Typed", signature_type: "text" });
    const south = await upload(participantIds.south, signaturePng(200, 60), "image/png", "png");
    await sign(participantIds.south, { value: south, signature_type: "draw" });
  });

  it("holds each drawn and photographed signature as the bytes stored, named in consent_signatures.csv", async () => {
    const zip = await exportedZip(api, { studyId: STUDY_ID });
    const signatures = rowsOf(zip["consent_signatures.csv"]);
    const participantSignature = (participantId: number) =>
      signatures.find(
        (row) => row.participant_id === String(participantId) && row.question_id === "participant_signature",
      )!;

    const drawn = participantSignature(participantIds.drawn);
    expect(drawn.signature_type).toBe("draw");
    expect(drawn.image_file).toBe(
      `consent_signature_images/signing-${drawn.signing_id}_participant_signature.png`,
    );
    expect(zip[drawn.image_file!]).toEqual(await storedBytes(participantIds.drawn, fileNames.drawn));

    const photographed = participantSignature(participantIds.photographed);
    expect(photographed.signature_type).toBe("camera");
    expect(photographed.image_file).toBe(
      `consent_signature_images/signing-${photographed.signing_id}_participant_signature.jpg`,
    );
    expect(zip[photographed.image_file!]).toEqual(
      await storedBytes(participantIds.photographed, fileNames.photographed),
    );

    // A typed signature has no image; every image in the zip is one a row names.
    expect(participantSignature(participantIds.typed).image_file).toBe("");
    const images = Object.keys(zip).filter((name) => name.startsWith("consent_signature_images/"));
    expect(images.sort()).toEqual(
      signatures
        .map((row) => row.image_file!)
        .filter((name) => name !== "")
        .sort(),
    );
    expect(images).toHaveLength(3);
  });

  it("describes the image_file column in the codebook", async () => {
    const zip = await exportedZip(api, { studyId: STUDY_ID });
    const entry = rowsOf(zip["codebook.csv"]).find(
      (row) => row.file === "consent_signatures.csv" && row.column === "image_file",
    );
    expect(entry).toMatchObject({
      type: "file",
      label: expect.stringContaining("consent_signature_images/"),
    });
  });

  it("holds only the images of the sites in scope", async () => {
    const zip = await exportedZip(api, { studyId: STUDY_ID, siteIds: [SITE.north] });
    const signatures = rowsOf(zip["consent_signatures.csv"]);
    expect(signatures.map((row) => row.subject_id).sort()).toEqual(["N-001", "N-002", "N-003"]);
    const images = Object.keys(zip).filter((name) => name.startsWith("consent_signature_images/"));
    expect(images).toHaveLength(2);
  });
});

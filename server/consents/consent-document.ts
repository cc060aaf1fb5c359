/**
 * What the consent PDFs show (server/pdf/consent-pdf.ts draws them): the questions of the
 * version with the participant's answers, and each signature's manifestation with its image
 * (the uploaded file, read from the database) or typed name, its verification, and the
 * record hash (the latest signature's hash, which covers every answer and earlier signature).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { CONSENT_UPLOAD_MODULE, IMAGE_SIGNATURE_TYPES } from "../../core/contracts/consent-schemas.ts";
import { type SignerRole } from "../../core/contracts/roles.ts";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { questionOf } from "../../core/survey-engine/definition-lookup.ts";
import type { Database } from "../db/client.ts";
import { uploadedFiles } from "../db/schema.ts";
import { readFileContents } from "../files/file-store.ts";
import type { ConsentPdfInput, ConsentPdfKind, ConsentPdfSignature } from "../pdf/consent-pdf.ts";
import { manifestationOf, type ConsentState } from "./consent-signings.ts";
import { signerRoleOf } from "../../core/survey-engine/consent-status.ts";
import { canonicalJson, sha256Hex } from "./signature-hash.ts";

/** An answer as a person reads it: choice labels, or the values, joined. */
function answerText(record: AnswerRecord | undefined): string | undefined {
  if (!record || record.state !== "ANSWERED" || record.answer.length === 0) return undefined;
  return record.answer
    .map((entry) =>
      entry.choice_id !== undefined && entry.label !== "" ? entry.label : String(entry.value ?? ""),
    )
    .join(", ");
}

export function pdfQuestions(definition: SurveyDefinition, records: readonly AnswerRecord[] = []) {
  const byId = new Map(records.map((record) => [record.id, record]));
  return definition.order.flatMap((questionId) => {
    const question = questionOf(definition, questionId);
    if (!question) return [];
    const role: SignerRole | undefined = signerRoleOf(question);
    const text = question.type === "consent_signature" ? undefined : answerText(byId.get(questionId));
    return [
      {
        label: question.label,
        type: question.type,
        ...(text === undefined ? {} : { answerText: text }),
        ...(role === undefined ? {} : { signerRole: role }),
      },
    ];
  });
}

/** The signatures with their images (when the uploaded file is there) or typed names. */
async function pdfSignatures(
  db: Database,
  participantId: number,
  state: ConsentState,
): Promise<ConsentPdfSignature[]> {
  const fileNames = state.signatures
    .filter((row) => IMAGE_SIGNATURE_TYPES.has(row.signatureType))
    .map((row) => row.value);
  const files = fileNames.length
    ? await db
        .select({ id: uploadedFiles.id, fileName: uploadedFiles.fileName })
        .from(uploadedFiles)
        .where(
          and(
            eq(uploadedFiles.participantId, participantId),
            eq(uploadedFiles.moduleName, CONSENT_UPLOAD_MODULE),
            inArray(uploadedFiles.fileName, fileNames),
          ),
        )
        .orderBy(asc(uploadedFiles.id))
    : [];
  // The latest upload of a name is the one the signature shows.
  const fileIdOf = new Map(files.map((file) => [file.fileName, file.id]));
  const contents = await readFileContents(db, [...new Set(fileIdOf.values())]);
  return state.signatures.map((row) => {
    const signature: ConsentPdfSignature = manifestationOf(row, state.verified.get(row.id) ?? false);
    if (!IMAGE_SIGNATURE_TYPES.has(row.signatureType)) return { ...signature, typedName: row.value };
    const fileId = fileIdOf.get(row.value);
    // A file without content (kept on a disk no server imported from) prints the manifestation alone.
    const image = fileId === undefined ? undefined : contents.get(fileId);
    return image ? { ...signature, image } : signature;
  });
}

/** The hash the footer shortens: the latest signature's, or the answers' own when none signed yet. */
export function recordHashOf(state: ConsentState) {
  const last = state.signatures.at(-1);
  return last ? last.hash : sha256Hex(canonicalJson(state.records));
}

export async function completedPdfInput(
  db: Database,
  input: {
    title: string;
    version: number;
    studyName: string;
    participant: { id: number; name: string; subjectId: string };
    definition: SurveyDefinition;
    state: ConsentState;
  },
): Promise<ConsentPdfInput> {
  return {
    kind: "completed",
    title: input.title,
    consentVersion: input.version,
    studyName: input.studyName,
    participant: { name: input.participant.name, subjectId: input.participant.subjectId },
    questions: pdfQuestions(input.definition, input.state.records),
    signatures: await pdfSignatures(db, input.participant.id, input.state),
    recordHash: recordHashOf(input.state),
    allSignaturesVerified: input.state.allVerified,
  };
}

export function unsignedPdfInput(input: {
  kind: Exclude<ConsentPdfKind, "completed">;
  title: string;
  version: number;
  studyName: string;
  participant?: { name: string; subjectId: string };
  definition: SurveyDefinition;
}): ConsentPdfInput {
  return {
    kind: input.kind,
    title: input.title,
    consentVersion: input.version,
    studyName: input.studyName,
    ...(input.participant ? { participant: input.participant } : {}),
    questions: pdfQuestions(input.definition),
    signatures: [],
  };
}

/** A file name for the PDF: the title's letters and digits, the version, the subject id. */
export function pdfFileName(title: string, version: number, subjectId?: string) {
  const base = title
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 80);
  const subject = subjectId ? `-${subjectId.replace(/[^\w-]/g, "")}` : "";
  return `${base || "consent"}-v${version}${subject}.pdf`;
}

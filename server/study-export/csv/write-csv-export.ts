/**
 * The CSV export: a zip (streamed, see zip-stream.ts) holding
 *
 * - codebook.csv: the data dictionary, one row per column of every other file (file, column,
 *   question id, label, type, choices as "code, label | code, label", the choices' scores as
 *   "code=score | ...", the score's formula);
 * - {slug}_v{version}.csv: one per instrument definition version, one row per submission, in
 *   REDCap's layout (instrument-columns.ts), a file with only its header when nothing was
 *   received for that version;
 * - consents.csv: one row per consent session (a clinician's or a witness's submission);
 * - consent_signatures.csv: one row per signature with its manifestation (21 CFR 11.50), and
 *   for a drawn, photographed or chosen signature the name of its image in the zip (image_file);
 * - consent_signature_images/signing-{signing id}_{question id}.{png, jpg...}: those images, the
 *   bytes stored, uncompressed (one signing holds one signature per question, so names are unique).
 *
 * Every file is RFC 4180 CSV in UTF-8 with CRLF line ends. A text cell starting with =, +, -, @,
 * a tab or a carriage return is written with a leading ' so that a spreadsheet shows it as text
 * instead of running it as a formula (csv-cells.ts); numbers are written as they are.
 */
import type {
  ExportConsentSigning,
  ExportSignature,
  ExportSource,
  ExportSubmission,
} from "../export-source.ts";
import { csvLine, isoCell, type CsvCell } from "./csv-cells.ts";
import { InstrumentColumns, type CodebookEntry } from "./instrument-columns.ts";
import { ZipStream } from "./zip-stream.ts";

export const CODEBOOK_FILE = "codebook.csv";
export const CONSENTS_FILE = "consents.csv";
export const CONSENT_SIGNATURES_FILE = "consent_signatures.csv";
export const SIGNATURE_IMAGES_FOLDER = "consent_signature_images";

const CODEBOOK_HEADER = [
  "file",
  "column",
  "question_id",
  "label",
  "type",
  "choices",
  "choice_scores",
  "score_formula",
];

type PlainColumn = {
  column: string;
  label: string;
  type: string;
  value: (signing: ExportConsentSigning) => CsvCell;
};

function consentColumns(source: ExportSource): PlainColumn[] {
  const titles = new Map(source.consentVersions.map((version) => [version.consentId, version.title]));
  const names = new Map(source.users.map((user) => [user.id, user.name]));
  const siteLabels = new Map(source.sites.map((site) => [site.id, site.label]));
  return [
    {
      column: "signing_id",
      label: "The consent session's id on the server",
      type: "identifier",
      value: (s) => s.id,
    },
    {
      column: "participant_id",
      label: "The participant's id on the server",
      type: "identifier",
      value: (s) => s.participant.id,
    },
    {
      column: "subject_id",
      label: "The participant's subject id",
      type: "identifier",
      value: (s) => s.participant.subjectId,
    },
    {
      column: "site_id",
      label: "The participant's site",
      type: "identifier",
      value: (s) => s.participant.siteId,
    },
    {
      column: "site_label",
      label: "The participant's site's name",
      type: "text",
      value: (s) => siteLabels.get(s.participant.siteId) ?? "",
    },
    { column: "consent_id", label: "The consent", type: "identifier", value: (s) => s.consentId },
    {
      column: "consent_title",
      label: "The consent's title",
      type: "text",
      value: (s) => titles.get(s.consentId) ?? "",
    },
    {
      column: "consent_version",
      label: "The consent version signed",
      type: "integer",
      value: (s) => s.version,
    },
    {
      column: "session",
      label: "Whose session sent it: clinro (the clinician's) or witness",
      type: "text",
      value: (s) => s.endpoint,
    },
    {
      column: "status",
      label:
        "The participant's consent status now: awaiting_participant, awaiting_clinro, awaiting_witness, complete or declined",
      type: "text",
      value: (s) => s.status,
    },
    {
      column: "device_completed_at",
      label: "When the device says the session was completed (ISO 8601, UTC)",
      type: "datetime",
      value: (s) => isoCell(s.deviceCompletedAt),
    },
    {
      column: "server_received_at",
      label: "When the server received it (ISO 8601, UTC)",
      type: "datetime",
      value: (s) => isoCell(s.receivedAt),
    },
    {
      column: "user_id",
      label: "The portal user who sent the session",
      type: "identifier",
      value: (s) => s.userId,
    },
    { column: "user_name", label: "That user's name", type: "text", value: (s) => names.get(s.userId) ?? "" },
  ];
}

type SignatureRow = { signing: ExportConsentSigning; signature: ExportSignature };

/** The zip entry of the signature's image, or "" when it has none (typed, or its bytes are not held). */
function signatureImagePath({ signing, signature }: SignatureRow) {
  if (!signature.image) return "";
  // Question ids and extensions are the study's and the uploader's text: kept to safe characters.
  const question = signature.questionId.replace(/[^A-Za-z0-9_-]/g, "_");
  const extension = /^[a-z0-9]{1,10}$/.test(signature.image.extension) ? signature.image.extension : "bin";
  return `${SIGNATURE_IMAGES_FOLDER}/signing-${signing.id}_${question}.${extension}`;
}
type SignatureColumn = { column: string; label: string; type: string; value: (row: SignatureRow) => CsvCell };

const SIGNATURE_COLUMNS: SignatureColumn[] = [
  {
    column: "signing_id",
    label: "The consent session the signature belongs to",
    type: "identifier",
    value: (r) => r.signing.id,
  },
  {
    column: "participant_id",
    label: "The participant's id on the server",
    type: "identifier",
    value: (r) => r.signing.participant.id,
  },
  {
    column: "subject_id",
    label: "The participant's subject id",
    type: "identifier",
    value: (r) => r.signing.participant.subjectId,
  },
  { column: "consent_id", label: "The consent", type: "identifier", value: (r) => r.signing.consentId },
  {
    column: "consent_version",
    label: "The consent version signed",
    type: "integer",
    value: (r) => r.signing.version,
  },
  {
    column: "question_id",
    label: "The signature question",
    type: "identifier",
    value: (r) => r.signature.questionId,
  },
  {
    column: "role",
    label: "Who signed: participant, caregiver, clinro or witness",
    type: "text",
    value: (r) => r.signature.role,
  },
  {
    column: "printed_name",
    label: "The signer's printed name",
    type: "text",
    value: (r) => r.signature.printedName,
  },
  {
    column: "meaning",
    label: "The meaning of the signature",
    type: "text",
    value: (r) => r.signature.meaning,
  },
  {
    column: "signature_type",
    label: "How it was given: draw, text, camera or image",
    type: "text",
    value: (r) => r.signature.signatureType,
  },
  {
    column: "image_file",
    label: `The signature's image in this zip (${SIGNATURE_IMAGES_FOLDER}/...), the bytes as uploaded: drawn, camera and image signatures; empty for a typed signature or an image the server does not hold`,
    type: "file",
    value: signatureImagePath,
  },
  {
    column: "signer_user_id",
    label: "The portal user who signed (clinicians and witnesses; empty for participants and caregivers)",
    type: "identifier",
    value: (r) => r.signature.signerUserId,
  },
  {
    column: "captured_at",
    label: "The device's time of signing, with its offset, as sent",
    type: "datetime",
    value: (r) => r.signature.capturedAt,
  },
  {
    column: "received_at",
    label: "When the server received it (ISO 8601, UTC)",
    type: "datetime",
    value: (r) => isoCell(r.signature.receivedAt),
  },
  { column: "time_zone", label: "The device's time zone", type: "text", value: (r) => r.signature.timeZone },
  {
    column: "hash",
    label: "SHA-256 of the signed content, linking the signature to its record",
    type: "text",
    value: (r) => r.signature.hash,
  },
];

function codebookLines(
  file: string,
  entries: readonly (Partial<CodebookEntry> & { column: string; label: string; type: string })[],
) {
  return entries
    .map((entry) =>
      csvLine([
        file,
        entry.column,
        entry.questionId ?? "",
        entry.label,
        entry.type,
        entry.choices ?? "",
        entry.choiceScores ?? "",
        entry.formula ?? "",
      ]),
    )
    .join("");
}

export async function* writeCsvExport(source: ExportSource): AsyncGenerator<Uint8Array> {
  const zip = new ZipStream();
  const siteLabels = new Map(source.sites.map((site) => [site.id, site.label]));
  const userNames = new Map(source.users.map((user) => [user.id, user.name]));
  const files = source.instrumentVersions.map(
    (version) =>
      new InstrumentColumns(version, {
        siteLabel: (siteId) => siteLabels.get(siteId) ?? "",
        userName: (userId) => userNames.get(userId) ?? "",
      }),
  );
  const consents = consentColumns(source);

  yield* zip.startFile(CODEBOOK_FILE);
  yield* zip.write(csvLine(CODEBOOK_HEADER));
  for (const file of files) yield* zip.write(codebookLines(file.fileName, file.codebook()));
  yield* zip.write(codebookLines(CONSENTS_FILE, consents));
  yield* zip.write(codebookLines(CONSENT_SIGNATURES_FILE, SIGNATURE_COLUMNS));

  // The submissions arrive grouped by instrument then version, in the order of the versions.
  const submissions = source.submissions("by-form")[Symbol.asyncIterator]();
  let next: IteratorResult<ExportSubmission> = await submissions.next();
  for (const file of files) {
    yield* zip.startFile(file.fileName);
    yield* zip.write(csvLine(file.header()));
    while (
      !next.done &&
      next.value.instrumentId === file.version.instrumentId &&
      next.value.versionNumber === file.version.versionNumber
    ) {
      yield* zip.write(csvLine(file.row(next.value)));
      next = await submissions.next();
    }
  }
  if (!next.done) {
    throw new Error(
      `Submission ${next.value.id} arrived out of its version's order (instrument ${next.value.instrumentId} version ${next.value.versionNumber})`,
    );
  }

  yield* zip.startFile(CONSENTS_FILE);
  yield* zip.write(csvLine(consents.map((column) => column.column)));
  for await (const signing of source.consentSignings()) {
    yield* zip.write(csvLine(consents.map((column) => column.value(signing))));
  }

  // A second read of the sessions: a zip writes one file at a time, and holding every
  // signature until consents.csv is done would grow with the study.
  yield* zip.startFile(CONSENT_SIGNATURES_FILE);
  yield* zip.write(csvLine(SIGNATURE_COLUMNS.map((column) => column.column)));
  for await (const signing of source.consentSignings()) {
    for (const signature of signing.signatures) {
      yield* zip.write(csvLine(SIGNATURE_COLUMNS.map((column) => column.value({ signing, signature }))));
    }
  }

  // A third read for the images, one at a time, for the same reason.
  for await (const signing of source.consentSignings()) {
    for (const signature of signing.signatures) {
      if (!signature.image) continue;
      yield* zip.addFile(signatureImagePath({ signing, signature }), await signature.image.bytes());
    }
  }
  yield* zip.close();
}

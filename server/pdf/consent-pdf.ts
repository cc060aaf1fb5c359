/**
 * The consent as a PDF (pdfkit), in three kinds:
 *  - completed: every question with its answer, each signature's manifestation (21 CFR 11.50:
 *    printed name, date and time with zone, meaning) with its image or typed name, both times,
 *    whether it verifies, and a verification summary;
 *  - blank: the consent text, to read;
 *  - print_to_sign: the consent text and, per signer, lines for printed name, signature and date.
 * Every page has a footer: title, version, participant, "Page i of n", and the first 12
 * characters of the record hash (pages are buffered so the count is known when footers are drawn).
 *
 * The text is set in DejaVu Sans, embedded (subset), so every character of a Spanish or other
 * Unicode consent prints and reads back as itself. The PDF's own labels are English: the
 * record's language, like the signature meanings.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import PDFDocument from "pdfkit";
import { SIGNATURE_MEANINGS, type SignatureManifestation } from "../../core/contracts/consent-schemas.ts";
import { type SignerRole } from "../../core/contracts/roles.ts";

export type ConsentPdfKind = "completed" | "blank" | "print_to_sign";

export type ConsentPdfQuestion = {
  label: string;
  /** The survey question type; consent_signature questions are printed as signatures. */
  type: string;
  /** The answer as a person reads it (completed consents); undefined when not answered. */
  answerText?: string;
  /** For consent_signature questions: who signs there (print_to_sign draws their lines). */
  signerRole?: SignerRole;
};

export type ConsentPdfSignature = SignatureManifestation & {
  /** The drawn, photographed or uploaded signature: PNG or JPEG bytes. */
  image?: Uint8Array;
  /** The typed name of a "text" signature. */
  typedName?: string;
};

export type ConsentPdfInput = {
  kind: ConsentPdfKind;
  title: string;
  consentVersion: number;
  studyName: string;
  participant?: { name: string; subjectId: string };
  questions: ConsentPdfQuestion[];
  signatures: ConsentPdfSignature[];
  /** Hex SHA-256 of the signed record; the footer shows its first 12 characters. */
  recordHash?: string;
  allSignaturesVerified?: boolean;
  /** print_to_sign: who signs on paper when the questions name no signer (default participant, clinician). */
  signerRoles?: SignerRole[];
};

export const SIGNATURE_QUESTION_TYPE = "consent_signature";
export const SHORT_HASH_LENGTH = 12;
/** Question types that only show text: no answer to print or write. */
const DISPLAY_TYPES = new Set(["introduction", "prompt", "pdf", "submission"]);

/** Who the signer is, as the PDF names the role. */
export const SIGNER_ROLE_NAMES: Record<SignerRole, string> = {
  participant: "Participant",
  caregiver: "Caregiver (legally authorised representative)",
  clinro: "Clinician obtaining consent",
  witness: "Impartial witness",
};

const DEFAULT_PAPER_SIGNERS: SignerRole[] = ["participant", "clinro"];

// Layout, in points (1/72 inch). A4 with 2 cm side margins; the bottom margin leaves room for
// the two footer lines below the text.
const PAGE = { size: "A4" as const, margin: 57, bottom: 80 };
const FOOTER_GAP = 22;
const COLOR = { text: "#111111", muted: "#555555", rule: "#999999", bad: "#9b1c1c", good: "#1d5e2c" };
const SIZE = { title: 17, heading: 12.5, body: 10.5, small: 9, footer: 8 };

const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")),
  "ttf",
);
let fonts: { regular: Buffer; bold: Buffer; oblique: Buffer; mono: Buffer } | undefined;
/** Read once per process: every PDF embeds (a subset of) the same files. */
function loadFonts() {
  fonts ??= {
    regular: readFileSync(path.join(fontDir, "DejaVuSans.ttf")),
    bold: readFileSync(path.join(fontDir, "DejaVuSans-Bold.ttf")),
    oblique: readFileSync(path.join(fontDir, "DejaVuSans-Oblique.ttf")),
    mono: readFileSync(path.join(fontDir, "DejaVuSansMono.ttf")),
  };
  return fonts;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * An ISO 8601 time as it was written, in its own offset: "22-Nov-2026 09:30:00 UTC+01:00".
 * The device's captured time keeps the signer's clock and offset (no conversion to ours).
 */
export function formatTimeWithOffset(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!match) return iso;
  const [, year, month, day, hour, minute, second, offset] = match;
  const zone = offset === "Z" ? "UTC" : `UTC${offset}`;
  return `${day}-${MONTHS[Number(month) - 1]}-${year} ${hour}:${minute}:${second} ${zone}`;
}

/** A moment in UTC: "22-Nov-2026 08:30:05 UTC". */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatTimeWithOffset(date.toISOString().replace(/\.\d+Z$/, "Z"));
}

/** The signer's local time with its zone: "22-Nov-2026 09:30:00 UTC+01:00 (Europe/Madrid)". */
export function formatSignedAt(signature: Pick<SignatureManifestation, "captured_at" | "time_zone">) {
  const local = formatTimeWithOffset(signature.captured_at);
  const zone = signature.time_zone.trim();
  return zone && !local.endsWith(`UTC${zone}`) ? `${local} (${zone})` : local;
}

type Doc = InstanceType<typeof PDFDocument>;

function contentWidth(doc: Doc) {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

function bottomLimit(doc: Doc) {
  return doc.page.height - doc.page.margins.bottom;
}

/** Starts a new page when fewer than `height` points are left, so a block is never split. */
function keepTogether(doc: Doc, height: number) {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

/** A section heading, kept on one page with at least `keepWith` points of what follows. */
function heading(doc: Doc, text: string, keepWith = 40) {
  keepTogether(doc, 36 + keepWith);
  doc.moveDown(0.8);
  doc
    .font("bold")
    .fontSize(SIZE.heading)
    .fillColor(COLOR.text)
    .text(text, { width: contentWidth(doc) });
  const y = doc.y + 2;
  doc
    .moveTo(doc.page.margins.left, y)
    .lineTo(doc.page.width - doc.page.margins.right, y)
    .lineWidth(0.5)
    .strokeColor(COLOR.rule)
    .stroke();
  doc.y = y + 8;
}

/** A "Label: value" line with the label in bold, wrapped as one paragraph. */
function field(doc: Doc, label: string, value: string, color = COLOR.text) {
  doc
    .font("bold")
    .fontSize(SIZE.body)
    .fillColor(COLOR.text)
    .text(`${label}: `, { continued: true, width: contentWidth(doc) })
    .font("regular")
    .fillColor(color)
    .text(value);
  doc.fillColor(COLOR.text);
}

function titleBlock(doc: Doc, input: ConsentPdfInput) {
  const kindName = {
    completed: "Completed consent record",
    blank: "Consent text",
    print_to_sign: "Consent form for signature on paper",
  }[input.kind];
  doc.font("regular").fontSize(SIZE.small).fillColor(COLOR.muted).text(`${input.studyName} · ${kindName}`);
  doc.moveDown(0.3);
  doc
    .font("bold")
    .fontSize(SIZE.title)
    .fillColor(COLOR.text)
    .text(input.title, { width: contentWidth(doc) });
  doc.moveDown(0.4);
  field(doc, "Version", String(input.consentVersion));
  if (input.participant) {
    field(doc, "Participant", `${input.participant.name} (subject ID ${input.participant.subjectId || "—"})`);
  } else if (input.kind === "print_to_sign") {
    field(doc, "Participant", "_______________________________________");
  }
  if (input.kind === "completed" && input.recordHash) field(doc, "Record hash (SHA-256)", input.recordHash);
}

function isSignatureQuestion(question: ConsentPdfQuestion) {
  return question.type === SIGNATURE_QUESTION_TYPE;
}

/** The consent's text and questions; with answers for a completed consent. */
function questionsSection(doc: Doc, input: ConsentPdfInput) {
  const questions = input.questions.filter((question) => !isSignatureQuestion(question));
  if (questions.length === 0) return;
  heading(doc, input.kind === "completed" ? "Consent and answers" : "Consent");
  for (const question of questions) {
    keepTogether(doc, 40);
    doc
      .font("regular")
      .fontSize(SIZE.body)
      .fillColor(COLOR.text)
      .text(question.label, {
        width: contentWidth(doc),
        lineGap: 1.5,
      });
    if (input.kind === "print_to_sign" && !DISPLAY_TYPES.has(question.type)) {
      // On paper the answer is written by hand.
      const y = doc.y + 18;
      const left = doc.page.margins.left + 14;
      doc
        .moveTo(left, y)
        .lineTo(left + contentWidth(doc) * 0.6, y)
        .lineWidth(0.6)
        .strokeColor(COLOR.text)
        .stroke();
      doc
        .font("regular")
        .fontSize(SIZE.small)
        .fillColor(COLOR.muted)
        .text("Answer", left, y + 3);
      doc.fillColor(COLOR.text).fontSize(SIZE.body);
      doc.x = doc.page.margins.left;
    }
    if (
      input.kind === "completed" &&
      (question.answerText !== undefined || !DISPLAY_TYPES.has(question.type))
    ) {
      doc.moveDown(0.2);
      doc.x = doc.page.margins.left + 14;
      doc
        .font("bold")
        .text("Answer: ", { continued: true, width: contentWidth(doc) - 14 })
        .font("regular")
        .text(question.answerText === undefined ? "(not answered)" : question.answerText || "—");
      doc.x = doc.page.margins.left;
    }
    doc.moveDown(0.7);
  }
}

const SIGNATURE_IMAGE = { width: 220, height: 70 };
const SIGNATURE_BLOCK_HEIGHT = 200;
const PAPER_SIGNER_HEIGHT = 150;

function signatureBlock(doc: Doc, signature: ConsentPdfSignature) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  keepTogether(doc, SIGNATURE_BLOCK_HEIGHT);
  const top = doc.y;
  doc
    .font("bold")
    .fontSize(SIZE.body + 0.5)
    .fillColor(COLOR.text)
    .text(`${signature.meaning} — ${SIGNER_ROLE_NAMES[signature.role]}`, left + 10, top + 8, {
      width: width - 20,
    });
  doc.moveDown(0.4);

  // The mark itself: the image, or the typed name in a signature-like style.
  const markTop = doc.y;
  if (signature.image && signature.image.length > 0) {
    try {
      doc.image(Buffer.from(signature.image), left + 10, markTop, {
        fit: [SIGNATURE_IMAGE.width, SIGNATURE_IMAGE.height],
      });
      doc.y = markTop + SIGNATURE_IMAGE.height + 4;
    } catch {
      doc.font("oblique").fontSize(SIZE.small).fillColor(COLOR.bad);
      doc.text("[The signature image could not be read.]", left + 10, markTop, { width: width - 20 });
    }
  } else {
    const typed = signature.typedName ?? signature.printed_name;
    doc
      .font("oblique")
      .fontSize(18)
      .fillColor(COLOR.text)
      .text(typed, left + 10, markTop, { width: width - 20 });
    doc
      .font("regular")
      .fontSize(SIZE.small)
      .fillColor(COLOR.muted)
      .text("(typed signature)", left + 10);
  }
  doc
    .moveTo(left + 10, doc.y + 2)
    .lineTo(left + 10 + SIGNATURE_IMAGE.width, doc.y + 2)
    .lineWidth(0.5)
    .strokeColor(COLOR.rule)
    .stroke();
  doc.y += 8;
  doc.x = left + 10;

  field(doc, "Printed name", signature.printed_name);
  field(doc, "Role", SIGNER_ROLE_NAMES[signature.role]);
  field(doc, "Meaning", signature.meaning);
  field(doc, "Signed (device time)", formatSignedAt(signature));
  field(doc, "Received by the server", formatUtc(signature.received_at));
  field(doc, "Signature type", signature.signature_type);
  field(
    doc,
    "Verification",
    signature.verified ? "verifies against the signed record" : "DOES NOT VERIFY against the signed record",
    signature.verified ? COLOR.good : COLOR.bad,
  );
  const bottom = doc.y + 8;
  doc
    .rect(left, top, width, bottom - top)
    .lineWidth(0.75)
    .strokeColor(COLOR.rule)
    .stroke();
  doc.x = left;
  doc.y = bottom + 12;
}

function signaturesSection(doc: Doc, input: ConsentPdfInput) {
  heading(doc, "Signatures", SIGNATURE_BLOCK_HEIGHT);
  if (input.signatures.length === 0) {
    doc.font("regular").fontSize(SIZE.body).text("No signatures have been recorded.");
    return;
  }
  for (const signature of input.signatures) signatureBlock(doc, signature);
}

function verificationSection(doc: Doc, input: ConsentPdfInput) {
  heading(doc, "Verification", 70);
  const total = input.signatures.length;
  const failing = input.signatures.filter((signature) => !signature.verified);
  const allVerified = input.allSignaturesVerified ?? failing.length === 0;
  keepTogether(doc, 70);
  if (allVerified && failing.length === 0) {
    doc
      .font("bold")
      .fontSize(SIZE.body)
      .fillColor(COLOR.good)
      .text(`All ${total} signature${total === 1 ? "" : "s"} verify against the signed record.`);
  } else {
    const names = failing.map((signature) => `${signature.printed_name} (${signature.meaning})`).join("; ");
    doc
      .font("bold")
      .fontSize(SIZE.body)
      .fillColor(COLOR.bad)
      .text(
        failing.length > 0
          ? `${failing.length} of ${total} signatures do not verify: ${names}. The record may have been changed after signing.`
          : "The signatures do not verify against the signed record. The record may have been changed after signing.",
        { width: contentWidth(doc) },
      );
  }
  doc.fillColor(COLOR.text).moveDown(0.4);
  doc
    .font("regular")
    .fontSize(SIZE.small)
    .fillColor(COLOR.muted)
    .text(
      "Each signature stores the SHA-256 hash of the content it signed (the consent version, the answers and the earlier signatures). Verification recomputes it from the stored record.",
      { width: contentWidth(doc) },
    );
  if (input.recordHash) {
    doc.moveDown(0.3);
    doc.font("mono").fontSize(SIZE.small).fillColor(COLOR.text).text(`Record hash: ${input.recordHash}`);
  }
  doc.fillColor(COLOR.text);
}

/** Lines to sign on paper, one block per signer. */
function paperSignaturesSection(doc: Doc, input: ConsentPdfInput) {
  const fromQuestions = input.questions.filter(isSignatureQuestion);
  const signers =
    fromQuestions.length > 0
      ? fromQuestions.map((question) => ({ role: question.signerRole, label: question.label }))
      : (input.signerRoles ?? DEFAULT_PAPER_SIGNERS).map((role) => ({ role, label: undefined }));
  heading(doc, "Signatures", PAPER_SIGNER_HEIGHT);
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  for (const signer of signers) {
    keepTogether(doc, PAPER_SIGNER_HEIGHT);
    const title = signer.role
      ? `${SIGNATURE_MEANINGS[signer.role]} — ${SIGNER_ROLE_NAMES[signer.role]}`
      : (signer.label ?? "Signature");
    doc
      .font("bold")
      .fontSize(SIZE.body + 0.5)
      .fillColor(COLOR.text)
      .text(title, left, doc.y, { width });
    if (signer.role && signer.label) {
      doc.font("regular").fontSize(SIZE.small).fillColor(COLOR.muted).text(signer.label, { width });
    }
    doc.moveDown(0.6);
    for (const line of ["Printed name", "Signature", "Date and time (with time zone)"]) {
      const y = doc.y + 22;
      doc
        .moveTo(left, y)
        .lineTo(left + width * 0.75, y)
        .lineWidth(0.6)
        .strokeColor(COLOR.text)
        .stroke();
      doc
        .font("regular")
        .fontSize(SIZE.small)
        .fillColor(COLOR.muted)
        .text(line, left, y + 3);
      doc.y = y + 16;
    }
    doc.fillColor(COLOR.text);
    doc.y += 14;
  }
}

/** Title, version, participant; page i of n and the short hash: on every page, below the text. */
function footers(doc: Doc, input: ConsentPdfInput) {
  const range = doc.bufferedPageRange();
  const participant = input.participant
    ? `${input.participant.name} (${input.participant.subjectId || "—"})`
    : input.kind === "print_to_sign"
      ? "Participant: ______________"
      : "No participant";
  const shortHash = input.recordHash ? `Record ${input.recordHash.slice(0, SHORT_HASH_LENGTH)}` : "";
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    const { left, right, bottom } = doc.page.margins;
    const width = doc.page.width - left - right;
    // Writing below the bottom margin would make pdfkit start a new page: lift it while drawing.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - bottom + FOOTER_GAP;
    doc
      .moveTo(left, y - 6)
      .lineTo(left + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.font("regular").fontSize(SIZE.footer).fillColor(COLOR.muted);
    doc.text(`${input.title} · Version ${input.consentVersion} · ${participant}`, left, y, {
      width,
      lineBreak: false,
      ellipsis: true,
    });
    doc.text(`Page ${index + 1} of ${range.count}`, left, y + 12, { width: width / 2, lineBreak: false });
    if (shortHash) {
      doc
        .font("mono")
        .text(shortHash, left + width / 2, y + 12, { width: width / 2, align: "right", lineBreak: false });
    }
    doc.page.margins.bottom = bottom;
  }
}

export async function renderConsentPdf(input: ConsentPdfInput): Promise<Buffer> {
  const loaded = loadFonts();
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.bottom },
    bufferPages: true,
    autoFirstPage: true,
    info: {
      Title: `${input.title} (version ${input.consentVersion})`,
      Subject: input.participant ? `Consent of ${input.participant.name}` : "Consent",
      Creator: "ClinRO portal",
      Producer: "ClinRO portal (pdfkit)",
    },
    lang: "en",
    displayTitle: true,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.registerFont("regular", loaded.regular);
  doc.registerFont("bold", loaded.bold);
  doc.registerFont("oblique", loaded.oblique);
  doc.registerFont("mono", loaded.mono);
  doc.font("regular");

  titleBlock(doc, input);
  questionsSection(doc, input);
  if (input.kind === "completed") {
    signaturesSection(doc, input);
    verificationSection(doc, input);
  } else if (input.kind === "print_to_sign") {
    paperSignaturesSection(doc, input);
  }
  footers(doc, input);
  doc.end();
  return done;
}

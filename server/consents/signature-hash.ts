/**
 * Signature linking (21 CFR 11.70): each stored signature keeps the SHA-256 of the canonical
 * JSON (object keys sorted, no spaces) of what it signed:
 *   { consent_id, consent_version, participant_id,
 *     records: every answer of the participant's signings up to and including this one
 *              (latest per question, sorted by question id),
 *     earlier_signature_hashes: the hashes of the participant's earlier signatures of this
 *              consent version, oldest first,
 *     signature: the signature's own manifestation (question, role, meaning, printed name,
 *              type, value, both times, zone) }
 * Verification recomputes it from the stored rows: a changed record, a changed manifestation or
 * a signature moved onto another participant's signing no longer matches.
 */
import { createHash } from "node:crypto";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { mergeRecords } from "../../core/survey-engine/consent-status.ts";

/** JSON with object keys sorted at every level; undefined object members left out, as JSON does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    return text === undefined ? "null" : text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
}

export function sha256Hex(text: string) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The manifestation fields a signature hash covers. */
export type SignedManifestation = {
  questionId: string;
  role: string;
  meaning: string;
  printedName: string;
  signatureType: string;
  value: string;
  capturedAt: string;
  receivedAt: Date;
  timeZone: string;
};

export type SignedContent = {
  consentId: number;
  consentVersion: number;
  participantId: number;
  records: readonly AnswerRecord[];
  earlierSignatureHashes: readonly string[];
  signature: SignedManifestation;
};

/** The canonical hash of one signature's signed content (hex). */
export function signatureHash(content: SignedContent): string {
  const records = [...content.records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const signature = content.signature;
  return sha256Hex(
    canonicalJson({
      consent_id: content.consentId,
      consent_version: content.consentVersion,
      participant_id: content.participantId,
      records,
      earlier_signature_hashes: content.earlierSignatureHashes,
      signature: {
        question_id: signature.questionId,
        role: signature.role,
        meaning: signature.meaning,
        printed_name: signature.printedName,
        signature_type: signature.signatureType,
        value: signature.value,
        captured_at: signature.capturedAt,
        received_at: signature.receivedAt.toISOString(),
        time_zone: signature.timeZone,
      },
    }),
  );
}

/** A stored signing, as verification reads it. */
export type StoredSigning = {
  id: number;
  consentId: number;
  participantId: number;
  version: number;
  records: readonly AnswerRecord[];
};

/** A stored signature, as verification reads it. */
export type StoredSignature = SignedManifestation & {
  id: number;
  signingId: number;
  consentId: number;
  participantId: number;
  version: number;
  hash: string;
};

export type SignatureVerification = {
  /** Per signature id: whether its hash matches the content recomputed now. */
  verified: Map<number, boolean>;
  /** True when there is at least one signature and every one verifies. */
  allVerified: boolean;
};

/**
 * Recomputes every signature's hash of one participant's consent version from the stored
 * signings and signatures (those loaded for that participant, consent and version) and compares.
 */
export function verifyConsentSignatures(input: {
  consentId: number;
  consentVersion: number;
  participantId: number;
  signings: readonly StoredSigning[];
  signatures: readonly StoredSignature[];
}): SignatureVerification {
  const signings = [...input.signings].sort((a, b) => a.id - b.id);
  const signatures = [...input.signatures].sort((a, b) => a.id - b.id);
  const verified = new Map<number, boolean>();
  const earlier: string[] = [];
  for (const signature of signatures) {
    const own = signings.find((signing) => signing.id === signature.signingId);
    const belongs =
      own !== undefined &&
      own.consentId === input.consentId &&
      own.participantId === input.participantId &&
      own.version === input.consentVersion &&
      signature.consentId === input.consentId &&
      signature.participantId === input.participantId &&
      signature.version === input.consentVersion;
    const records = mergeRecords(
      signings.filter((signing) => signing.id <= signature.signingId).map((signing) => signing.records),
    );
    const expected = signatureHash({
      consentId: input.consentId,
      consentVersion: input.consentVersion,
      participantId: input.participantId,
      records,
      earlierSignatureHashes: earlier,
      signature,
    });
    verified.set(signature.id, belongs && expected === signature.hash);
    earlier.push(signature.hash);
  }
  return {
    verified,
    allVerified: signatures.length > 0 && [...verified.values()].every(Boolean),
  };
}

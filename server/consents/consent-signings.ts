/**
 * A participant's signings of one consent version: loading them (records merged latest per
 * question, signatures with their verification) and storing a new one with its signatures,
 * each hashed over the content it signs (signature-hash.ts), and the participant's new status.
 */
import { and, asc, eq } from "drizzle-orm";
import {
  SIGNATURE_MEANINGS,
  type SignatureManifestation,
  type SignatureType,
} from "../../core/contracts/consent-schemas.ts";
import { type SignerRole } from "../../core/contracts/roles.ts";
import type { ConsentParticipantStatus } from "../../core/contracts/consents.ts";
import { isUserSignerRole } from "../../core/contracts/roles.ts";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { questionOf } from "../../core/survey-engine/definition-lookup.ts";
import type { Database, Transaction } from "../db/client.ts";
import { consentParticipants, consentSignatures, consentSignings } from "../db/schema.ts";
import {
  consentStatusOf,
  isSigned,
  mergeRecords,
  signerRoleOf,
} from "../../core/survey-engine/consent-status.ts";
import {
  signatureHash,
  verifyConsentSignatures,
  type StoredSignature,
  type StoredSigning,
} from "./signature-hash.ts";

type Executor = Database | Transaction;

export type ConsentKey = { consentId: number; participantId: number; version: number };

export type SignatureRow = typeof consentSignatures.$inferSelect;

export type ConsentState = {
  signings: StoredSigning[];
  signatures: SignatureRow[];
  /** Every answer so far, latest per question. */
  records: AnswerRecord[];
  verified: Map<number, boolean>;
  allVerified: boolean;
};

function storedSignature(row: SignatureRow): StoredSignature {
  return {
    id: row.id,
    signingId: row.signingId,
    consentId: row.consentId,
    participantId: row.participantId,
    version: row.version,
    questionId: row.questionId,
    role: row.role,
    meaning: row.meaning,
    printedName: row.printedName,
    signatureType: row.signatureType,
    value: row.value,
    capturedAt: row.capturedAt,
    receivedAt: row.receivedAt,
    timeZone: row.timeZone,
    hash: row.hash,
  };
}

/** The participant's signings and signatures of this consent version, verified. */
export async function loadConsentState(db: Executor, key: ConsentKey): Promise<ConsentState> {
  const signingRows = await db
    .select()
    .from(consentSignings)
    .where(
      and(
        eq(consentSignings.consentId, key.consentId),
        eq(consentSignings.participantId, key.participantId),
        eq(consentSignings.version, key.version),
      ),
    )
    .orderBy(asc(consentSignings.id));
  const signatureRows = await db
    .select()
    .from(consentSignatures)
    .where(
      and(
        eq(consentSignatures.consentId, key.consentId),
        eq(consentSignatures.participantId, key.participantId),
        eq(consentSignatures.version, key.version),
      ),
    )
    .orderBy(asc(consentSignatures.id));
  const signings: StoredSigning[] = signingRows.map((row) => ({
    id: row.id,
    consentId: row.consentId,
    participantId: row.participantId,
    version: row.version,
    records: row.records as AnswerRecord[],
  }));
  const check = verifyConsentSignatures({
    consentId: key.consentId,
    consentVersion: key.version,
    participantId: key.participantId,
    signings,
    signatures: signatureRows.map(storedSignature),
  });
  return {
    signings,
    signatures: signatureRows,
    records: mergeRecords(signings.map((signing) => signing.records)),
    verified: check.verified,
    allVerified: check.allVerified,
  };
}

export function manifestationOf(row: SignatureRow, verified: boolean): SignatureManifestation {
  return {
    question_id: row.questionId,
    role: row.role as SignerRole,
    meaning: row.meaning,
    printed_name: row.printedName,
    signature_type: row.signatureType as SignatureType,
    captured_at: row.capturedAt,
    received_at: row.receivedAt.toISOString(),
    time_zone: row.timeZone,
    verified,
  };
}

export function manifestationsOf(state: ConsentState): SignatureManifestation[] {
  return state.signatures.map((row) => manifestationOf(row, state.verified.get(row.id) ?? false));
}

/** The UTC offset of an ISO time (+01:00, or +00:00 for Z): the zone when the device sent none. */
export function offsetOf(iso: string) {
  const match = /([+-]\d{2}:\d{2})$/.exec(iso);
  return match ? match[1]! : "+00:00";
}

export type NewSigning = ConsentKey & {
  definition: SurveyDefinition;
  userId: number;
  /** The portal user's printed name, for clinro and witness signatures. */
  userName: string;
  endpoint: "clinro" | "witness";
  /** This session's records (already checked), in the order received. */
  records: AnswerRecord[];
  completion: Date;
  browserInfo: string | undefined;
  /** The device's zone and capture time of the staff signature, from the signing proof. */
  signing: { capturedAt: string; timeZone: string } | undefined;
  receivedAt: Date;
};

/** A signature ready to store: its manifestation, signer and hash. */
export type PreparedSignature = {
  questionId: string;
  role: SignerRole;
  meaning: string;
  printedName: string;
  signatureType: string;
  value: string;
  capturedAt: string;
  receivedAt: Date;
  timeZone: string;
  signerUserId: number | null;
  hash: string;
};

/**
 * The signatures of a new signing, hashed in order (each over the records so far and the earlier
 * signatures' hashes), the records after it and the participant's new status. Pure: the seed
 * prepares many signings this way and stores them in bulk.
 */
export function prepareSigning(
  earlier: { records: readonly (readonly AnswerRecord[])[]; hashes: readonly string[] },
  input: NewSigning,
): { records: AnswerRecord[]; signatures: PreparedSignature[]; status: ConsentParticipantStatus } {
  const records = mergeRecords([...earlier.records, input.records]);
  const hashes = [...earlier.hashes];
  const signatures: PreparedSignature[] = [];
  for (const record of input.records) {
    const question = questionOf(input.definition, record.id);
    const role = question ? signerRoleOf(question) : undefined;
    if (!role || !isSigned(record)) continue;
    const entry = record.answer[0]!;
    const staff = isUserSignerRole(role);
    const capturedAt =
      staff && input.signing
        ? input.signing.capturedAt
        : (entry.signed_date ?? input.completion.toISOString());
    const manifestation = {
      questionId: record.id,
      role,
      meaning: SIGNATURE_MEANINGS[role],
      printedName: staff ? input.userName : entry.label.trim(),
      signatureType: entry.signature_type ?? "text",
      value: String(entry.value),
      capturedAt,
      receivedAt: input.receivedAt,
      timeZone: input.signing?.timeZone ?? offsetOf(capturedAt),
    };
    const hash = signatureHash({
      consentId: input.consentId,
      consentVersion: input.version,
      participantId: input.participantId,
      records,
      earlierSignatureHashes: hashes,
      signature: manifestation,
    });
    signatures.push({ ...manifestation, signerUserId: staff ? input.userId : null, hash });
    hashes.push(hash);
  }
  return { records, signatures, status: consentStatusOf(input.definition, records) };
}

/** The consent_signings row of a new signing. */
export function signingRow(input: NewSigning): typeof consentSignings.$inferInsert {
  return {
    consentId: input.consentId,
    participantId: input.participantId,
    version: input.version,
    userId: input.userId,
    endpoint: input.endpoint,
    records: input.records,
    completion: input.completion,
    browserInfo: input.browserInfo ?? null,
    receivedAt: input.receivedAt,
  };
}

/**
 * Stores a signing, its signatures and the participant's new status. Call inside the
 * transaction that locked the participant's consent row, after the checks.
 */
export async function storeSigning(
  tx: Transaction,
  state: ConsentState,
  input: NewSigning,
): Promise<{ status: ConsentParticipantStatus; signatures: SignatureManifestation[] }> {
  const prepared = prepareSigning(
    {
      records: state.signings.map((signing) => signing.records),
      hashes: state.signatures.map((row) => row.hash),
    },
    input,
  );
  const [signing] = await tx
    .insert(consentSignings)
    .values(signingRow(input))
    .returning({ id: consentSignings.id });
  const stored: SignatureRow[] = [];
  // One row at a time: ids follow the hashing order, which verification reads back.
  for (const signature of prepared.signatures) {
    const [row] = await tx
      .insert(consentSignatures)
      .values({
        signingId: signing!.id,
        consentId: input.consentId,
        participantId: input.participantId,
        version: input.version,
        ...signature,
      })
      .returning();
    stored.push(row!);
  }
  await tx
    .update(consentParticipants)
    .set({ status: prepared.status })
    .where(
      and(
        eq(consentParticipants.consentId, input.consentId),
        eq(consentParticipants.participantId, input.participantId),
      ),
    );
  return {
    status: prepared.status,
    signatures: [...manifestationsOf(state), ...stored.map((row) => manifestationOf(row, true))],
  };
}

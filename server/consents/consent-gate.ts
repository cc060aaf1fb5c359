/**
 * Consent first on the server (core/contracts/consent-gate.ts): the consents holding a
 * participant's ratings back, read in one statement, and the 409 that refuses a submission or
 * an instrument event while any is left. Read before anything is written; a refusal stores
 * nothing.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  CONSENT_REQUIRED_CODE,
  consentRequiredMessage,
  consentsHoldingBack,
  type ParticipantConsent,
} from "../../core/contracts/consent-gate.ts";
import { consentParticipantStatus } from "../../core/contracts/consents.ts";
import type { Database, Transaction } from "../db/client.ts";
import { consentParticipants, consents, consentVersions, participants, studies } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

type Executor = Database | Transaction;

/**
 * The participant's consents holding their ratings back: empty unless the study asks consent
 * first (read here unless the caller has it already).
 */
export async function consentsHoldingBackParticipant(
  db: Executor,
  participantId: number,
  asksConsentFirst?: boolean,
): Promise<ParticipantConsent[]> {
  const asks = asksConsentFirst ?? (await studyAsksConsentFirst(db, participantId));
  if (!asks) return [];
  return consentsHoldingBack({
    asksConsentFirst: true,
    consents: await participantConsents(db, participantId),
  });
}

async function studyAsksConsentFirst(db: Executor, participantId: number) {
  const [study] = await db
    .select({ asksConsentFirst: studies.newConsentEnabled })
    .from(participants)
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .where(eq(participants.id, participantId));
  return study?.asksConsentFirst === true;
}

/** The participant's offered consents (retired ones left out), each with its optionality. */
async function participantConsents(db: Executor, participantId: number) {
  const rows = await db
    .select({
      consent_id: consentParticipants.consentId,
      title: consents.title,
      version: consentParticipants.version,
      status: consentParticipants.status,
      // The definition of the version the participant is on says whether it is optional.
      optional: sql<boolean>`coalesce((${consentVersions.definition}->>'optional')::boolean, false)`,
    })
    .from(consentParticipants)
    .innerJoin(consents, and(eq(consents.id, consentParticipants.consentId), isNull(consents.retiredAt)))
    .leftJoin(
      consentVersions,
      and(
        eq(consentVersions.consentId, consentParticipants.consentId),
        eq(consentVersions.version, consentParticipants.version),
      ),
    )
    .where(eq(consentParticipants.participantId, participantId));
  return rows.map((row) => {
    const status = consentParticipantStatus.safeParse(row.status);
    // A status the portal does not know is not a completed consent.
    return { ...row, status: status.success ? status.data : "awaiting_participant" };
  });
}

/** The 409 of a rating taken before consent: names the first consent still holding it back. */
export async function requireConsentFirst(db: Executor, participantId: number): Promise<void> {
  const [first] = await consentsHoldingBackParticipant(db, participantId);
  if (first) throw new HttpError(409, consentRequiredMessage(first), CONSENT_REQUIRED_CODE);
}

/**
 * Access to a consent and to a participant's consent, checked on every id a consent call names:
 * the consent must be of a study in the user's permissions, the participant of the user's
 * permitted study and site and of the consent's study, and offered the consent (a
 * consent_participants row). An unknown consent or version is a 404; anything outside the
 * user's permissions, or a participant not offered the consent or version, is a 403.
 */
import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { consentParticipants, consents, participants, studyPermissions } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { findAccessibleParticipant } from "../participants/participant-access.ts";
import { participantForbidden } from "../participants/site-access.ts";

type Executor = Database | Transaction;

export function consentNotFound(consentId: number) {
  return new HttpError(404, `Consent ${consentId} does not exist.`, "consent_not_found");
}

export function consentForbidden() {
  return new HttpError(403, "You do not have access to this consent.", "consent_forbidden");
}

export function notOfferedForbidden() {
  return new HttpError(
    403,
    "This participant is not asked to sign this consent version.",
    "consent_not_offered",
  );
}

/**
 * The consent, when it exists and its study is one of the user's (404 / 403 otherwise): one
 * round trip, the user's permission in its study read beside it.
 */
export async function requireConsent(db: Executor, userId: number, consentId: number) {
  const [row] = await db
    .select({ consent: consents, role: studyPermissions.role })
    .from(consents)
    .leftJoin(
      studyPermissions,
      and(eq(studyPermissions.studyId, consents.studyId), eq(studyPermissions.userId, userId)),
    )
    .where(eq(consents.id, consentId));
  if (!row) throw consentNotFound(consentId);
  if (row.role === null) throw consentForbidden();
  return { consent: row.consent, role: row.role };
}

/**
 * The consent, the participant (full row) and the participant's consent row, when the user may
 * work with all three. The consent row may be on another version than asked: callers compare.
 */
export async function requireParticipantConsent(
  db: Executor,
  userId: number,
  consentId: number,
  participantId: number,
) {
  const { consent, role } = await requireConsent(db, userId, consentId);
  const accessible = await findAccessibleParticipant(db as Database, userId, participantId);
  if (!accessible || accessible.studyId !== consent.studyId) throw participantForbidden();
  const [participant] = await db.select().from(participants).where(eq(participants.id, participantId));
  const [offer] = await db
    .select()
    .from(consentParticipants)
    .where(
      and(eq(consentParticipants.consentId, consentId), eq(consentParticipants.participantId, participantId)),
    );
  if (!participant || !offer) throw notOfferedForbidden();
  return { consent, role, participant, offer };
}

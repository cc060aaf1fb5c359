/**
 * Reads one participant's instrument deliveries for the two list calls: every instance of the
 * participant's study's instruments, with its instrument and the completer's name. Access is
 * checked first: the participant's study and site must be named in the user's permissions, and a
 * study_id given in the query must be the participant's study. Every refusal is the same 403.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import type { Database } from "../db/client.ts";
import { preparedPerDatabase } from "../db/prepared-per-database.ts";
import { instrumentInstances, instruments, users } from "../db/schema.ts";
import { findAccessibleParticipant } from "../participants/participant-access.ts";
import { participantForbidden } from "../participants/site-access.ts";

export async function requireParticipantInStudy(
  db: Database,
  userId: number,
  participantId: number,
  studyId: number | undefined,
) {
  const participant = await findAccessibleParticipant(db, userId, participantId);
  if (!participant || (studyId !== undefined && participant.studyId !== studyId)) {
    throw participantForbidden();
  }
  return participant;
}

/** The deliveries the two list calls show: clinician-rated instruments and announcements. */
const LISTED_TYPES = [INSTRUMENT_TYPE.clinician, INSTRUMENT_TYPE.announcement];

/** Asked at every participant opened: prepared once per database. */
const preparedInstances = preparedPerDatabase((db) =>
  db
    .select({
      instrument: instruments,
      instance: instrumentInstances,
      completerName: users.name,
    })
    .from(instrumentInstances)
    .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
    .leftJoin(users, eq(users.id, instrumentInstances.whoCompleted))
    .where(
      and(
        eq(instrumentInstances.participantId, sql.placeholder("participantId")),
        eq(instruments.studyId, sql.placeholder("studyId")),
        inArray(instruments.instrumentType, LISTED_TYPES),
      ),
    )
    .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
    .prepare("participant_instances"),
);

/** The participant's deliveries of LISTED_TYPES in the study, oldest first. */
export function loadParticipantInstances(db: Database, participantId: number, studyId: number) {
  return preparedInstances(db).execute({ participantId, studyId });
}

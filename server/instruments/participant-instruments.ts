/**
 * Reads one participant's instrument deliveries for the two list calls: every instance of the
 * participant's study's instruments, with its instrument and the completer's name. Access is
 * checked first: the participant's study and site must be named in the user's permissions, and a
 * study_id given in the query must be the participant's study. Every refusal is the same 403.
 */
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import { aliased, preparedRows, type Database } from "../db/client.ts";
import type { DriverTimestamp } from "../db/iso-time.ts";
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

/** One delivery with its instrument, as the database sends it (preparedRows: no cell is mapped). */
export type DeliveredRow = {
  instrument_id: number;
  display_name: string;
  instrument_type: string;
  permissions: string[];
  visible_days: number;
  metadata: unknown;
  study_id: number;
  slug: string;
  instance_id: number;
  start_date: DriverTimestamp;
  expiration: DriverTimestamp | null;
  completion: DriverTimestamp | null;
  who_completed: number | null;
  completer_name: string | null;
};

/**
 * Asked at every participant opened: prepared once per database and read as plain rows with only
 * the columns the two lists answer. Drizzle's mapping of every cell of the whole instrument and
 * instance rows was most of the server's work for the call. A retired instrument's
 * open deliveries are no longer to do and are left out here; what was completed stays.
 */
const preparedInstances = preparedPerDatabase((db: Database) =>
  preparedRows<DeliveredRow, { participantId: number; studyId: number }>(
    db,
    "participant_instances",
    db
      .select({
        instrument_id: aliased(instruments.id, "instrument_id"),
        display_name: aliased(instruments.displayName, "display_name"),
        instrument_type: aliased(instruments.instrumentType, "instrument_type"),
        permissions: aliased(instruments.permissions, "permissions"),
        visible_days: aliased(instruments.visibleDays, "visible_days"),
        metadata: aliased(instruments.metadata, "metadata"),
        study_id: aliased(instruments.studyId, "study_id"),
        slug: aliased(instruments.slug, "slug"),
        instance_id: aliased(instrumentInstances.id, "instance_id"),
        start_date: aliased(instrumentInstances.startDate, "start_date"),
        expiration: aliased(instrumentInstances.expiration, "expiration"),
        completion: aliased(instrumentInstances.completion, "completion"),
        who_completed: aliased(instrumentInstances.whoCompleted, "who_completed"),
        completer_name: aliased(users.name, "completer_name"),
      })
      .from(instrumentInstances)
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .leftJoin(users, eq(users.id, instrumentInstances.whoCompleted))
      .where(
        and(
          eq(instrumentInstances.participantId, sql.placeholder("participantId")),
          eq(instruments.studyId, sql.placeholder("studyId")),
          inArray(instruments.instrumentType, LISTED_TYPES),
          or(isNull(instruments.retiredAt), isNotNull(instrumentInstances.completion)),
        ),
      )
      .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
      .getSQL(),
  ),
);

/**
 * The participant's deliveries of LISTED_TYPES in the study, oldest first, without a retired
 * instrument's open ones.
 */
export function loadParticipantInstances(db: Database, participantId: number, studyId: number) {
  return preparedInstances(db).all({ participantId, studyId });
}

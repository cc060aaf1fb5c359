/**
 * A participant as the API answers them (the participant home's call, and the enrolment and
 * edit calls, which add their own fields): their row, their study's name, and how many of their
 * clinician-rated deliveries are done.
 */
import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import { participantGender, type ParticipantResponse } from "../../core/contracts/participant.ts";
import type { Database, Transaction } from "../db/client.ts";
import { instrumentInstances, instruments, type participants } from "../db/schema.ts";

export async function participantRecord(
  db: Database | Transaction,
  participant: typeof participants.$inferSelect,
  studyName: string,
): Promise<ParticipantResponse> {
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      completed: sql<number>`count(${instrumentInstances.completion})::int`,
    })
    .from(instrumentInstances)
    .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
    .where(
      and(
        eq(instrumentInstances.participantId, participant.id),
        eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
      ),
    );
  return participantAnswer(participant, studyName, counts ?? { completed: 0, total: 0 });
}

/** The clinician-rated deliveries of the participant in the outer query: (total, completed). */
export const clinicianDeliveryCounts = (participantId: SQLWrapper) => ({
  total: sql<number>`(select count(*)::int from ${instrumentInstances}
    join ${instruments} on ${instruments.id} = ${instrumentInstances.instrumentId}
    where ${instrumentInstances.participantId} = ${participantId}
    and ${instruments.instrumentType} = ${INSTRUMENT_TYPE.clinician})`,
  completed: sql<number>`(select count(${instrumentInstances.completion})::int from ${instrumentInstances}
    join ${instruments} on ${instruments.id} = ${instrumentInstances.instrumentId}
    where ${instrumentInstances.participantId} = ${participantId}
    and ${instruments.instrumentType} = ${INSTRUMENT_TYPE.clinician})`,
});

/** The answer, from the participant's row, their study's name and their delivery counts. */
export function participantAnswer(
  participant: typeof participants.$inferSelect,
  studyName: string,
  counts: { completed: number; total: number },
): ParticipantResponse {
  const gender = participantGender.safeParse(participant.gender);
  return {
    id: participant.id,
    fname: participant.fname,
    lname: participant.lname,
    gender: gender.success ? gender.data : null,
    date_of_birth: participant.dateOfBirth,
    first_login_timestamp: participant.firstLoginTimestamp?.toISOString() ?? null,
    last_updated: participant.lastUpdated.toISOString(),
    num_completed_instruments: counts.completed,
    num_total_instruments: counts.total,
    study_name: studyName,
    subject_id: participant.subjectId,
    email: participant.email,
  };
}

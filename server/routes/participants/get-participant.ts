/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants/{participantId}: the participant
 * of the participant home, when it is in that study and site and the user may read both.
 */
import { getParticipantCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { participantGender, type ParticipantResponse } from "../../../core/contracts/participant.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  studies,
  studyPermissions,
} from "../../db/schema.ts";
import { participantForbidden } from "../../participants/site-access.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";

export function participantRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, getParticipantCall, async (request): Promise<ParticipantResponse> => {
    const { user } = requireSession(request);
    const { studyId, siteId, participantId } = request.params;
    // One query for the participant and the permission: a participant of another study or
    // site, one the user may not read, and one that does not exist all get the same 403.
    const [row] = await ctx.db
      .select({ participant: participants, studyName: studies.name })
      .from(participants)
      .innerJoin(studies, eq(studies.id, participants.studyId))
      .innerJoin(
        studyPermissions,
        and(eq(studyPermissions.studyId, participants.studyId), eq(studyPermissions.userId, user.id)),
      )
      .innerJoin(
        sitePermissions,
        and(eq(sitePermissions.siteId, participants.siteId), eq(sitePermissions.userId, user.id)),
      )
      .where(
        and(
          eq(participants.id, participantId),
          eq(participants.studyId, studyId),
          eq(participants.siteId, siteId),
        ),
      );
    if (!row) throw participantForbidden();
    const { participant } = row;
    // The clinician-rated deliveries of this participant, and how many of them are done.
    const [counts] = await ctx.db
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
    const gender = participantGender.safeParse(participant.gender);
    return {
      id: participant.id,
      fname: participant.fname,
      lname: participant.lname,
      gender: gender.success ? gender.data : null,
      date_of_birth: participant.dateOfBirth,
      first_login_timestamp: participant.firstLoginTimestamp?.toISOString() ?? null,
      last_updated: participant.lastUpdated.toISOString(),
      num_completed_instruments: counts?.completed ?? 0,
      num_total_instruments: counts?.total ?? 0,
      study_name: row.studyName,
      subject_id: participant.subjectId,
      email: participant.email,
    };
  });
}

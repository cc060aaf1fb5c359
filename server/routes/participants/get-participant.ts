/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants/{participantId}: the participant
 * of the participant home, when it is in that study and site and the user may read both.
 */
import { getParticipantCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ParticipantResponse } from "../../../core/contracts/participant.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { participants, sitePermissions, studies, studyPermissions } from "../../db/schema.ts";
import { participantForbidden } from "../../participants/site-access.ts";
import { participantRecord } from "../../participants/participant-record.ts";

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
    return participantRecord(ctx.db, row.participant, row.studyName);
  });
}

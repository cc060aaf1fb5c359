/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants/{participantId}: the participant
 * of the participant home, when it is in that study and site and the user may read both.
 *
 * Opened at every tap on a participant: one prepared statement answers it, holding the session
 * check (sessionHolds), the permission and the delivery counts, as its bare SQL would (
 * three round trips and the query built anew at every call cost three times the statement).
 */
import { getParticipantCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ParticipantResponse } from "../../../core/contracts/participant.ts";
import { confirmedSession, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import { participants, sitePermissions, studies, studyPermissions } from "../../db/schema.ts";
import {
  participantForbidden,
  participantSitePermission,
  participantStudyPermission,
} from "../../participants/site-access.ts";
import { consentsHoldingBackParticipant } from "../../consents/consent-gate.ts";
import { clinicianDeliveryCounts, participantAnswer } from "../../participants/participant-record.ts";

function prepareParticipantHome(db: Database) {
  const userId = sql.placeholder("userId");
  const counts = clinicianDeliveryCounts(participants.id);
  return db
    .select({
      participant: participants,
      studyName: studies.name,
      asksConsentFirst: studies.newConsentEnabled,
      total: counts.total,
      completed: counts.completed,
    })
    .from(participants)
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .innerJoin(studyPermissions, participantStudyPermission(userId))
    .innerJoin(sitePermissions, participantSitePermission(userId))
    .where(
      and(
        eq(participants.id, sql.placeholder("participantId")),
        eq(participants.studyId, sql.placeholder("studyId")),
        eq(participants.siteId, sql.placeholder("siteId")),
        sessionHolds(db, userId, sql.placeholder("tokenVersion"), sql.placeholder("jti")),
      ),
    )
    .prepare("participant_home");
}

/** Built once per database: building the query costs about what running it does. */
const preparedParticipantHomes = preparedPerDatabase(prepareParticipantHome);

export function participantRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    getParticipantCall,
    async (request): Promise<ParticipantResponse> => {
      const claims = unconfirmedClaims(request);
      const { studyId, siteId, participantId } = request.params;
      const [row] = await preparedParticipantHomes(ctx.db).execute({
        userId: claims.id,
        tokenVersion: claims.ver,
        jti: claims.jti,
        participantId,
        studyId,
        siteId,
      });
      if (row) {
        const answer = participantAnswer(row.participant, row.studyName, row);
        // Consent first: what the participant home shows locked, kept on the device for offline.
        const holdingBack = await consentsHoldingBackParticipant(ctx.db, participantId, row.asksConsentFirst);
        return { ...answer, consents_holding_back: holdingBack };
      }
      // No row: a session that no longer holds (its 401 first), or a participant of another
      // study or site, one the user may not read, or none at all: the same 403 for all three.
      await confirmedSession(request);
      throw participantForbidden();
    },
    { sessionCheckedByRead: true },
  );
}

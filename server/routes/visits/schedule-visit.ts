/**
 * POST /control/studies/{studyId}/sites/{siteId}/clinro_visits (Idempotency-Key): a coordinator
 * (role 16) of the study, with the site in their permissions, schedules a visit for a participant
 * of that site. Answers the visit (201) and mails the participant the join link once (not on a
 * repeated key). 403 for anyone else; 404 for a participant not of that study and site; 409 when
 * the study has no virtual visits; 400 for bad input or a visit that would already have ended.
 */
import type { FastifyInstance } from "fastify";
import { scheduleVisitCall } from "../../../core/contracts/calls/visit-calls.ts";
import type { Visit } from "../../../core/contracts/visits.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { BackgroundTasks } from "../../http/background-tasks.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import {
  jsonRequestIdentity,
  idempotencyKeyOf,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";
import type { AccountMailDeps } from "../../users/account-mail.ts";
import { sendVisitInvitation } from "../../visits/visit-invitations.ts";
import {
  COORDINATOR_ROLE,
  requireVisitsAccess,
  scheduleVisit,
  type Invitation,
} from "../../visits/visit-records.ts";

export type ScheduleServices = { accountMail: AccountMailDeps; background: BackgroundTasks };

export function scheduleVisitRoutes(app: FastifyInstance, ctx: AppContext, services: ScheduleServices) {
  registerCall(app, scheduleVisitCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { studyId, siteId } = request.params;
    const body = request.body;
    const role = await requireVisitsAccess(ctx.db, user.id, studyId, siteId);
    if (role !== COORDINATOR_ROLE) {
      throw new HttpError(
        403,
        "Only a clinical coordinator of this study can schedule visits.",
        "coordinator_only",
      );
    }
    // The secret lives only in this request: a repeated key answers the stored visit and mails nothing.
    let invitation: Invitation | undefined;
    const now = new Date();
    const result = await runIdempotentWrite(ctx.db, {
      ...jsonRequestIdentity(request, user.id, key),
      async write(tx) {
        const scheduled = await scheduleVisit(
          tx,
          {
            studyId,
            siteId,
            participantId: body.participant_id,
            visitTime: new Date(body.visit_time),
            visitDuration: body.visit_duration,
            isRecorded: body.is_recorded,
            isAdhoc: body.is_adhoc,
            createdBy: user.id,
          },
          now,
        );
        invitation = scheduled.invitation;
        return { statusCode: 201, body: scheduled.visit };
      },
    });
    const visit = result.body as Visit;
    const toMail = invitation;
    if (!result.replayed && toMail) {
      services.background.run("visit_invitation", async () => {
        const link = await sendVisitInvitation(services.accountMail, visit, toMail);
        if (!link)
          request.log.info(
            { visit: visit.id },
            "The participant has no email address: no join link was mailed",
          );
      });
    }
    return reply.code(result.statusCode).send(visit);
  });
}

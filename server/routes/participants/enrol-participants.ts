/**
 * Enrolment by coordinators and enrollers: adding a participant at a site (idempotent, from the
 * outbox too), editing one, and a site's CSV import. Who may: server/participants/enrol-participant.ts.
 *
 * - POST .../sites/{siteId}/participants: the participant, its deliveries and consent offers in
 *   one audited transaction (201). The Idempotency-Key machinery answers a repeated key; the
 *   same client_id again, under any key, answers the participant it already made (201, same
 *   body), so an outbox that lost the answer cannot make a second one.
 * - PATCH .../participants/{participantId}: every field again (not the client id).
 * - POST .../participants/import: a CSV (JSON {csv, dry_run}); every row or none.
 */
import type { FastifyInstance } from "fastify";
import {
  editParticipantCall,
  enrolParticipantCall,
  importParticipantsCall,
} from "../../../core/contracts/calls/enrolment-calls.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import {
  idempotencyKeyOf,
  jsonRequestIdentity,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";
import {
  enrolmentRecord,
  insertParticipants,
  isClientIdViolation,
  isSubjectIdViolation,
  participantAtSite,
  participantByClientId,
  requireEnrolAccess,
  requireOpenSite,
  requireValidFields,
  subjectIdTaken,
  takenSubjectIds,
  updateParticipant,
} from "../../participants/enrol-participant.ts";
import { importParticipantCsv } from "../../participants/import-participants.ts";

function clientIdElsewhere() {
  return new HttpError(
    409,
    "This client_id already names a participant at another site: give the enrolment a new client_id.",
    "client_id_taken",
    [{ path: "client_id", message: "already names a participant at another site" }],
  );
}

export function participantEnrolmentRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, enrolParticipantCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { studyId, siteId } = request.params;
    const body = request.body;
    const site = await requireEnrolAccess(ctx.db, user, studyId, siteId);

    // The device sends an enrolment until it hears an answer: one it already made is answered again.
    const answerExisting = async () => {
      const existing = await participantByClientId(ctx.db, body.client_id);
      if (!existing) return undefined;
      if (existing.studyId !== studyId || existing.siteId !== siteId) throw clientIdElsewhere();
      return reply
        .code(201)
        .header("idempotent-replayed", "true")
        .send(await enrolmentRecord(ctx.db, existing.id));
    };
    const earlier = await answerExisting();
    if (earlier) return earlier;

    requireOpenSite(site);
    const now = new Date();
    requireValidFields(body, now);
    // Taken by this very enrolment, sent again meanwhile, is not taken: that answer is the participant.
    const subjectTaken = async () =>
      (await answerExisting()) ?? Promise.reject(subjectIdTaken(body.subject_id));
    if ((await takenSubjectIds(ctx.db, studyId, [body.subject_id])).size > 0) return subjectTaken();
    try {
      const result = await runIdempotentWrite(ctx.db, {
        ...jsonRequestIdentity(request, user.id, key),
        async write(tx) {
          const [id] = await insertParticipants(
            tx,
            studyId,
            siteId,
            [{ fields: body, clientId: body.client_id }],
            now,
          );
          return { statusCode: 201, body: await enrolmentRecord(tx, id!) };
        },
      });
      return reply
        .code(result.statusCode)
        .header("idempotent-replayed", String(result.replayed))
        .send(result.body);
    } catch (error) {
      // Two sends of one enrolment at once: the one that lost the race answers the winner's.
      if (isClientIdViolation(error)) {
        const winner = await answerExisting();
        if (winner) return winner;
      }
      if (isSubjectIdViolation(error)) return subjectTaken();
      throw error;
    }
  });

  registerCall(app, editParticipantCall, async (request) => {
    const { user } = requireSession(request);
    const { studyId, siteId, participantId } = request.params;
    const body = request.body;
    await requireEnrolAccess(ctx.db, user, studyId, siteId);
    await participantAtSite(ctx.db, studyId, siteId, participantId);
    const now = new Date();
    requireValidFields(body, now);
    if ((await takenSubjectIds(ctx.db, studyId, [body.subject_id], participantId)).size > 0) {
      throw subjectIdTaken(body.subject_id);
    }
    try {
      return await withAuditActor(ctx.db, user.id, async (tx) => {
        await updateParticipant(tx, participantId, body, now);
        return enrolmentRecord(tx, participantId);
      });
    } catch (error) {
      if (isSubjectIdViolation(error)) throw subjectIdTaken(body.subject_id);
      throw error;
    }
  });

  registerCall(app, importParticipantsCall, async (request, reply) => {
    const { user } = requireSession(request);
    const { studyId, siteId } = request.params;
    const site = await requireEnrolAccess(ctx.db, user, studyId, siteId);
    requireOpenSite(site);
    const outcome = await importParticipantCsv(ctx.db, {
      actorUserId: user.id,
      studyId,
      siteId,
      csv: request.body.csv,
      dryRun: request.body.dry_run,
      now: new Date(),
    });
    if (!outcome.ok) return reply.code(400).send(outcome.refusal);
    return outcome.response;
  });
}

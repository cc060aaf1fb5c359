/**
 * POST /control/participants/me/events?platform=clinro: instrument and announcement events,
 * stored once per Idempotency-Key.
 */
import { postEventsCall } from "../../../src/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import type { FastifyInstance } from "fastify";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { participantEvents } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { hashRequest, idempotencyKeyOf, runIdempotentWrite } from "../../idempotency/idempotent-write.ts";
import { findAccessibleParticipant } from "../../participants/participant-access.ts";

const PATH = "/control/participants/me/events";

export function eventRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, postEventsCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { platform } = request.query;
    const events = request.body;

    const participantIds = [...new Set(events.flatMap((event) => event.participant ?? []))];
    for (const participantId of participantIds) {
      if (!(await findAccessibleParticipant(ctx.db, user.id, participantId))) {
        throw new HttpError(403, "You do not have access to this participant.", "participant_forbidden");
      }
    }

    const result = await runIdempotentWrite(ctx.db, {
      userId: user.id,
      key,
      method: "POST",
      path: PATH,
      requestHash: hashRequest([JSON.stringify(request.sentBody)]),
      write: async (tx) => {
        await tx.insert(participantEvents).values(
          events.map((event) => ({
            userId: user.id,
            participantId: event.participant ?? null,
            studyId: event.study_id ?? null,
            type: event.type,
            occurredAt: new Date(event.timestamp),
            info: event.info,
            platform,
          })),
        );
        return { statusCode: 200, body: { received: events.length } };
      },
    });
    return reply
      .code(result.statusCode)
      .header("idempotent-replayed", String(result.replayed))
      .send(result.body);
  });
}

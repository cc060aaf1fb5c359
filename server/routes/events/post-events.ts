/**
 * POST /control/participants/me/events?platform=clinro: instrument and announcement events,
 * stored once per Idempotency-Key. A read event naming an announcement (info.announcement_id)
 * also marks it read for the user; every participant and announcement named must be the user's
 * (403 otherwise). An instrument event (one naming info.instrument_id) for a participant whose
 * study asks consent first waits for their consent: a 409 naming it (server/consents/consent-gate.ts).
 */
import { postEventsCall } from "../../../core/contracts/calls/event-calls.ts";
import { MAX_ID } from "../../../core/contracts/input-bounds.ts";
import { registerCall } from "../../http/register-call.ts";
import type { FastifyInstance } from "fastify";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { participantEvents } from "../../db/schema.ts";
import { HttpError, invalidRequest } from "../../http/errors.ts";
import { hashRequest, idempotencyKeyOf, runIdempotentWrite } from "../../idempotency/idempotent-write.ts";
import { requireConsentFirst } from "../../consents/consent-gate.ts";
import { findAccessibleParticipant } from "../../participants/participant-access.ts";
import { hasStudyPermission } from "../../users/load-me.ts";
import { addressedAnnouncementIds, markAnnouncementsRead } from "../../announcements/announcement-records.ts";
import type { EventRecord } from "../../../core/contracts/events.ts";

/** An event's announcement id as a number; undefined when it names none, NaN when it is not an id. */
function announcementIdOf(event: EventRecord) {
  const id = event.info.announcement_id;
  if (id === undefined) return undefined;
  const parsed = typeof id === "number" ? id : /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : Number.NaN;
  return Number.isSafeInteger(parsed) && parsed > 0 && parsed <= MAX_ID ? parsed : Number.NaN;
}

const PATH = "/control/participants/me/events";

/** info.study_id as a study id (a whole number, or its digits); undefined when the event names
 * none, NaN when what it names cannot be a study id. */
function studyIdOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === "string" && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) ? number : Number.NaN;
}

export function eventRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, postEventsCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { platform } = request.query;
    const events = request.body;

    // Every id an event names is the user's: each study (study_id, and info.study_id when it is
    // a number) one they have a permission in; each participant of a study and site they may
    // see, and of the event's study when it names one. Checked before anything is written.
    const studyIds = new Set<number>();
    for (const [index, event] of events.entries()) {
      if (event.study_id !== undefined) studyIds.add(event.study_id);
      const infoStudy = studyIdOf(event.info.study_id);
      if (Number.isNaN(infoStudy)) {
        throw invalidRequest([
          { path: `${index}.info.study_id`, message: "must be a study id (a positive integer)" },
        ]);
      }
      if (infoStudy !== undefined) studyIds.add(infoStudy);
    }
    for (const studyId of studyIds) {
      // A number outside the ids' range (info is free-form) names no study of the user's.
      const inRange = studyId >= 1 && studyId <= MAX_ID;
      if (!inRange || !(await hasStudyPermission(ctx.db, user.id, studyId))) {
        throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
      }
    }
    const participantStudies = new Map<number, number>();
    for (const participantId of new Set(events.flatMap((event) => event.participant ?? []))) {
      const participant = await findAccessibleParticipant(ctx.db, user.id, participantId);
      if (!participant) {
        throw new HttpError(403, "You do not have access to this participant.", "participant_forbidden");
      }
      participantStudies.set(participantId, participant.studyId);
    }
    for (const event of events) {
      if (event.participant === undefined) continue;
      for (const studyId of [event.study_id, studyIdOf(event.info.study_id)]) {
        if (studyId !== undefined && participantStudies.get(event.participant) !== studyId) {
          throw new HttpError(403, "You do not have access to this participant.", "participant_forbidden");
        }
      }
    }

    // Consent first: no instrument event for a participant whose required consent is not complete.
    const rated = new Set(
      events.flatMap((event) =>
        event.participant !== undefined && event.info.instrument_id !== undefined ? [event.participant] : [],
      ),
    );
    for (const participantId of rated) await requireConsentFirst(ctx.db, participantId);

    // Each announcement named must be one addressed to the user; a read event marks it read.
    const announcementIds = events.map(announcementIdOf);
    const badIndex = announcementIds.findIndex((id) => Number.isNaN(id));
    if (badIndex >= 0) {
      throw invalidRequest([
        {
          path: `${badIndex}.info.announcement_id`,
          message: "must be an announcement id (a positive integer)",
        },
      ]);
    }
    const named = [...new Set(announcementIds.filter((id): id is number => id !== undefined))];
    const addressed = await addressedAnnouncementIds(ctx.db, user.id, named);
    if (named.some((id) => !addressed.has(id))) {
      throw new HttpError(403, "You do not have access to this announcement.", "announcement_forbidden");
    }
    const read = events.flatMap((event, index) => {
      const id = announcementIds[index];
      return event.type === "read" && id !== undefined ? [id] : [];
    });

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
        await markAnnouncementsRead(tx, user.id, read, new Date());
        return { statusCode: 200, body: { received: events.length } };
      },
    });
    return reply
      .code(result.statusCode)
      .header("idempotent-replayed", String(result.replayed))
      .send(result.body);
  });
}

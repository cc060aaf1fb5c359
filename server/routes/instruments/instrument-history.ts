/**
 * GET /control/participants/{id}/instrument_history/clinro: the participant's clinician
 * instruments, as completed (the submissions received, newest first, with the completer's name
 * and the scores the server computed) and pending (open instances, oldest start first).
 */
import { instrumentHistoryCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { submittedScore, type HistoryResponse } from "../../../core/contracts/instrument-schemas.ts";
import { instrumentUrl } from "../../../core/contracts/instrument-lists.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { instrumentInstances, instrumentSubmissions, instruments, users } from "../../db/schema.ts";
import { isOpenInstance } from "../../instruments/open-instances.ts";
import { requireParticipantInStudy } from "../../instruments/participant-instruments.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";

const CLINICIAN_TYPE = INSTRUMENT_TYPE.clinician;

export function instrumentHistoryRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, instrumentHistoryCall, async (request): Promise<HistoryResponse> => {
    const { user } = requireSession(request);
    const { id: participantId } = request.params;
    const participant = await requireParticipantInStudy(ctx.db, user.id, participantId, undefined);

    const submitted = await ctx.db
      .select({
        submission: {
          id: instrumentSubmissions.id,
          instanceId: instrumentSubmissions.instrumentInstanceId,
          completedAt: instrumentSubmissions.completedAt,
          versionNumber: instrumentSubmissions.versionNumber,
          scores: instrumentSubmissions.scores,
        },
        instrument: { id: instruments.id, displayName: instruments.displayName },
        completerName: users.name,
      })
      .from(instrumentSubmissions)
      .innerJoin(instruments, eq(instruments.id, instrumentSubmissions.instrumentId))
      .innerJoin(users, eq(users.id, instrumentSubmissions.submittedBy))
      .where(
        and(
          eq(instrumentSubmissions.participantId, participant.id),
          eq(instruments.studyId, participant.studyId),
          eq(instruments.instrumentType, CLINICIAN_TYPE),
        ),
      )
      .orderBy(desc(instrumentSubmissions.completedAt), desc(instrumentSubmissions.id));

    const open = await ctx.db
      .select({ instrument: instruments, instance: instrumentInstances })
      .from(instrumentInstances)
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .where(
        and(
          eq(instrumentInstances.participantId, participant.id),
          eq(instruments.studyId, participant.studyId),
          eq(instruments.instrumentType, CLINICIAN_TYPE),
          isOpenInstance(new Date()),
        ),
      )
      .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id));

    return {
      instruments: {
        completed: submitted.map(({ submission, instrument, completerName }) => ({
          submission_id: submission.id,
          instrument_id: instrument.id,
          name: instrument.displayName,
          instance_id: submission.instanceId,
          completion: submission.completedAt.toISOString(),
          completed_by: completerName,
          version_number: submission.versionNumber,
          scores: storedScores(submission.scores),
        })),
        pending: open.map(({ instrument, instance }) => ({
          instrument_id: instrument.id,
          name: instrument.displayName,
          instance_id: instance.id,
          start_date: instance.startDate.toISOString(),
          expiration: instance.expiration?.toISOString() ?? null,
          permissions: instrument.permissions,
          url: instrumentUrl(instrument.studyId, instrument.id, instrument.slug),
        })),
      },
    };
  });
}

/** The scores column as the contract's shape; anything unreadable is left out, never a 500. */
function storedScores(value: unknown) {
  if (!Array.isArray(value)) return [];
  return value.flatMap((score) => {
    const parsed = submittedScore.safeParse(score);
    return parsed.success ? [parsed.data] : [];
  });
}

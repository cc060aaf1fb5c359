/**
 * GET /control/pending_instruments, optional ?study_id (header version 3.4.0): the open clinician
 * instrument instances of every participant the user may see (the participant's study and site
 * both in the user's permissions), oldest start first, at most PENDING_INSTRUMENTS_MAX.
 */
import { pendingInstrumentsCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  PENDING_INSTRUMENTS_MAX,
  type PendingInstrumentsResponse,
} from "../../../core/contracts/instrument-schemas.ts";
import { instrumentUrl } from "../../../core/contracts/instrument-lists.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import {
  instrumentInstances,
  instruments,
  participants,
  sitePermissions,
  studyPermissions,
} from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { isOpenInstance } from "../../instruments/open-instances.ts";
import { hasStudyPermission } from "../../users/load-me.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";

export function pendingInstrumentsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, pendingInstrumentsCall, async (request): Promise<PendingInstrumentsResponse> => {
    const { user } = requireSession(request);
    const { study_id } = request.query;
    if (study_id !== undefined && !(await hasStudyPermission(ctx.db, user.id, study_id))) {
      throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
    }
    const conditions: SQL[] = [
      eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
      // A retired instrument (removed from the study file) is to be done by no one.
      isNull(instruments.retiredAt),
    ];
    const open = isOpenInstance(new Date());
    if (open) conditions.push(open);
    if (study_id !== undefined) conditions.push(eq(participants.studyId, study_id));

    const rows = await ctx.db
      .select({
        participant: { id: participants.id, subjectId: participants.subjectId, siteId: participants.siteId },
        // Only what the answer names: the instrument's metadata (its schedule, JSON) is the
        // filter's, and parsing it for 500 rows cost more than the statement (issue 28).
        instrument: {
          id: instruments.id,
          studyId: instruments.studyId,
          displayName: instruments.displayName,
          permissions: instruments.permissions,
          slug: instruments.slug,
        },
        instance: {
          id: instrumentInstances.id,
          startDate: instrumentInstances.startDate,
          expiration: instrumentInstances.expiration,
        },
      })
      .from(instrumentInstances)
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .innerJoin(
        participants,
        and(
          eq(participants.id, instrumentInstances.participantId),
          eq(participants.studyId, instruments.studyId),
        ),
      )
      .innerJoin(
        studyPermissions,
        and(eq(studyPermissions.studyId, participants.studyId), eq(studyPermissions.userId, user.id)),
      )
      .innerJoin(
        sitePermissions,
        and(eq(sitePermissions.siteId, participants.siteId), eq(sitePermissions.userId, user.id)),
      )
      .where(and(...conditions))
      .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
      .limit(PENDING_INSTRUMENTS_MAX + 1);

    return {
      instruments: rows.slice(0, PENDING_INSTRUMENTS_MAX).map(({ participant, instrument, instance }) => ({
        participant_id: participant.id,
        subject_id: participant.subjectId,
        study_id: instrument.studyId,
        site_id: participant.siteId,
        instrument_id: instrument.id,
        instance_id: instance.id,
        name: instrument.displayName,
        permissions: instrument.permissions,
        url: instrumentUrl(instrument.studyId, instrument.id, instrument.slug),
        start_date: instance.startDate.toISOString(),
        expiration: instance.expiration?.toISOString() ?? null,
      })),
      truncated: rows.length > PENDING_INSTRUMENTS_MAX,
    };
  });
}

/**
 * GET /control/participants/{id}/instrument_history/clinro: the participant's clinician
 * instruments, as completed (the submissions received, newest first, with the completer's name
 * and the scores the server computed) and pending (open instances, oldest start first).
 *
 * GET /control/participants/{id}/instrument_history/clinro/{submissionId}: one of those
 * submissions, read-only, with its answer records as submitted (review what was
 * submitted). The participant must be one the user may see (403 otherwise); a submission that is
 * not a clinician instrument of that participant and study is a 404.
 */
import {
  instrumentHistoryCall,
  submissionAnswersCall,
} from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  submittedScore,
  type HistoryResponse,
  type SubmissionAnswersResponse,
} from "../../../core/contracts/instrument-schemas.ts";
import { answerRecordSchema } from "../../../core/contracts/survey-submission.ts";
import { HttpError } from "../../http/errors.ts";
import { instrumentUrl } from "../../../core/contracts/instrument-lists.ts";
import { alongsideSessionCheck, requireSession, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { aliased, preparedRows, type Database } from "../../db/client.ts";
import { isoTime, type DriverTimestamp } from "../../db/iso-time.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import {
  instrumentInstances,
  instrumentSubmissions,
  instruments,
  participants,
  users,
} from "../../db/schema.ts";
import { isOpenInstance } from "../../instruments/open-instances.ts";
import { requireParticipantInStudy } from "../../instruments/participant-instruments.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";

const CLINICIAN_TYPE = INSTRUMENT_TYPE.clinician;

/** A completed row of the history, as the database sends it (preparedRows: no cell is mapped). */
type SubmittedRow = {
  submission_id: number;
  instance_id: number | null;
  completion: DriverTimestamp;
  version_number: number;
  scores: unknown;
  instrument_id: number;
  name: string;
  completed_by: string;
};

/** A pending row of the history, as the database sends it. */
type OpenRow = {
  instance_id: number;
  start_date: DriverTimestamp;
  expiration: DriverTimestamp | null;
  instrument_id: number;
  name: string;
  permissions: string[];
  study_id: number;
  slug: string;
};

/**
 * The participant's clinician submissions, newest first, prepared once per database and read as
 * plain rows with only the answer's columns: built by Drizzle and mapped cell by cell at every
 * call, the two lists cost the server more than PostgreSQL spent on them.
 */
const preparedSubmitted = preparedPerDatabase((db: Database) =>
  preparedRows<SubmittedRow, { participantId: number }>(
    db,
    "history_submitted",
    db
      .select({
        submission_id: aliased(instrumentSubmissions.id, "submission_id"),
        instance_id: aliased(instrumentSubmissions.instrumentInstanceId, "instance_id"),
        completion: aliased(instrumentSubmissions.completedAt, "completion"),
        version_number: aliased(instrumentSubmissions.versionNumber, "version_number"),
        scores: aliased(instrumentSubmissions.scores, "scores"),
        instrument_id: aliased(instruments.id, "instrument_id"),
        name: aliased(instruments.displayName, "name"),
        completed_by: aliased(users.name, "completed_by"),
      })
      .from(instrumentSubmissions)
      .innerJoin(participants, eq(participants.id, instrumentSubmissions.participantId))
      .innerJoin(instruments, eq(instruments.id, instrumentSubmissions.instrumentId))
      .innerJoin(users, eq(users.id, instrumentSubmissions.submittedBy))
      .where(
        and(
          eq(instrumentSubmissions.participantId, sql.placeholder("participantId")),
          eq(instruments.studyId, participants.studyId),
          eq(instruments.instrumentType, CLINICIAN_TYPE),
        ),
      )
      .orderBy(desc(instrumentSubmissions.completedAt), desc(instrumentSubmissions.id))
      .getSQL(),
  ),
);

/** The participant's open clinician instances, oldest start first (read as preparedSubmitted). */
const preparedOpen = preparedPerDatabase((db: Database) =>
  preparedRows<OpenRow, { participantId: number; now: string }>(
    db,
    "history_open",
    db
      .select({
        instance_id: aliased(instrumentInstances.id, "instance_id"),
        start_date: aliased(instrumentInstances.startDate, "start_date"),
        expiration: aliased(instrumentInstances.expiration, "expiration"),
        instrument_id: aliased(instruments.id, "instrument_id"),
        name: aliased(instruments.displayName, "name"),
        permissions: aliased(instruments.permissions, "permissions"),
        study_id: aliased(instruments.studyId, "study_id"),
        slug: aliased(instruments.slug, "slug"),
      })
      .from(instrumentInstances)
      .innerJoin(participants, eq(participants.id, instrumentInstances.participantId))
      .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
      .where(
        and(
          eq(instrumentInstances.participantId, sql.placeholder("participantId")),
          eq(instruments.studyId, participants.studyId),
          eq(instruments.instrumentType, CLINICIAN_TYPE),
          isOpenInstance(sql.placeholder("now")),
        ),
      )
      .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
      .getSQL(),
  ),
);

export function instrumentHistoryRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, submissionAnswersCall, async (request): Promise<SubmissionAnswersResponse> => {
    const { user } = requireSession(request);
    const { id: participantId, submissionId } = request.params;
    const participant = await requireParticipantInStudy(ctx.db, user.id, participantId, undefined);
    const [row] = await ctx.db
      .select({
        submission: {
          id: instrumentSubmissions.id,
          instanceId: instrumentSubmissions.instrumentInstanceId,
          completedAt: instrumentSubmissions.completedAt,
          versionNumber: instrumentSubmissions.versionNumber,
          scores: instrumentSubmissions.scores,
          payload: instrumentSubmissions.payload,
        },
        instrument: { id: instruments.id, displayName: instruments.displayName },
        completerName: users.name,
      })
      .from(instrumentSubmissions)
      .innerJoin(instruments, eq(instruments.id, instrumentSubmissions.instrumentId))
      .innerJoin(users, eq(users.id, instrumentSubmissions.submittedBy))
      .where(
        and(
          eq(instrumentSubmissions.id, submissionId),
          eq(instrumentSubmissions.participantId, participant.id),
          eq(instruments.studyId, participant.studyId),
          eq(instruments.instrumentType, CLINICIAN_TYPE),
        ),
      );
    if (!row) {
      throw new HttpError(404, `Submission ${submissionId} does not exist.`, "submission_not_found");
    }
    const { submission, instrument, completerName } = row;
    return {
      submission_id: submission.id,
      instrument_id: instrument.id,
      name: instrument.displayName,
      instance_id: submission.instanceId,
      completion: submission.completedAt.toISOString(),
      completed_by: completerName,
      version_number: submission.versionNumber,
      scores: storedScores(submission.scores),
      answers: storedAnswers(submission.payload),
    };
  });

  registerCall(
    app,
    instrumentHistoryCall,
    async (request): Promise<HistoryResponse> => {
      const claims = unconfirmedClaims(request);
      const { id: participantId } = request.params;

      // The two lists and the access check at once, beside the session check, on the pool's
      // connections: one round trip's wait, not four. The lists find the participant's study
      // themselves; nothing is answered unless both checks hold.
      const [, submitted, open] = await alongsideSessionCheck(request, [
        requireParticipantInStudy(ctx.db, claims.id, participantId, undefined),
        preparedSubmitted(ctx.db).all({ participantId }),
        preparedOpen(ctx.db).all({ participantId, now: new Date().toISOString() }),
      ]);

      return {
        instruments: {
          completed: submitted.map((row) => ({
            submission_id: row.submission_id,
            instrument_id: row.instrument_id,
            name: row.name,
            instance_id: row.instance_id,
            completion: isoTime(row.completion),
            completed_by: row.completed_by,
            version_number: row.version_number,
            scores: storedScores(row.scores),
          })),
          pending: open.map((row) => ({
            instrument_id: row.instrument_id,
            name: row.name,
            instance_id: row.instance_id,
            start_date: isoTime(row.start_date),
            expiration: isoTime(row.expiration),
            permissions: row.permissions,
            url: instrumentUrl(row.study_id, row.instrument_id, row.slug),
          })),
        },
      };
    },
    { sessionCheckedByRead: true },
  );
}

/** The scores column as the contract's shape; anything unreadable is left out, never a 500. */
function storedScores(value: unknown) {
  if (!Array.isArray(value)) return [];
  return value.flatMap((score) => {
    const parsed = submittedScore.safeParse(score);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The answer records of a stored submission's payload (those that read as records). */
function storedAnswers(payload: Record<string, unknown>) {
  const records = Array.isArray(payload.answers) ? payload.answers : [];
  return records.flatMap((record) => {
    const parsed = answerRecordSchema.safeParse(record);
    return parsed.success ? [parsed.data] : [];
  });
}

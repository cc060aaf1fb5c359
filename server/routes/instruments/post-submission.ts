/**
 * POST /control/clinro/participant/{participantId}/instruments/{instrumentId}/submission
 * (header version 010, Idempotency-Key): a JSON array holding one completed instrument.
 *
 * Checked before anything is written: access to the participant, the user's permission to
 * administer the instrument, the participant's consent where the study asks consent first (a 409
 * naming the consent, server/consents/consent-gate.ts), the definition version it answered, its answers (the engine's
 * validateSubmission, against the stored definition), and its attachments (files this
 * participant uploaded for clinro). Then, once per Idempotency-Key, the submission is stored with
 * the scores the server computed and its instance is completed (record-submission.ts).
 * A refusal changes nothing.
 */
import { postSubmissionCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  SUBMISSION_MAX_BYTES,
  type SubmissionProblem,
  type SubmissionRejected,
  type SubmissionResponse,
} from "../../../core/contracts/instrument-schemas.ts";
import { MAX_ID } from "../../../core/contracts/study.ts";
import {
  formatSubmissionProblem,
  validateSubmission,
} from "../../../core/survey-engine/validate-submission.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { instrumentInstances, instruments, uploadedFiles } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import {
  jsonRequestIdentity,
  idempotencyKeyOf,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";
import { administerForbidden, studyRoleOf } from "../../instruments/administer-permission.ts";
import { definitionVersion, parsedDefinition } from "../../instruments/instrument-definitions.ts";
import { requireConsentFirst } from "../../consents/consent-gate.ts";
import { recordSubmission } from "../../instruments/record-submission.ts";
import { findAccessibleParticipant } from "../../participants/participant-access.ts";
import { participantForbidden } from "../../participants/site-access.ts";
import { INSTRUMENT_TYPE } from "../../../core/contracts/instrument-lists.ts";
import { FILE_MODULE } from "../../../core/contracts/files.ts";
import { isPermitted } from "../../../core/contracts/instrument-permission.ts";

/** How many problems the message repeats; the problems list holds them all. */
const PROBLEMS_IN_MESSAGE = 5;

/** A 422 (or 400) whose body lists every problem, each naming the question and field it is about. */
class SubmissionRejectedError extends HttpError {
  constructor(
    summary: string,
    readonly problems: SubmissionProblem[],
    code = "submission_invalid",
    status: 400 | 422 = 422,
  ) {
    const shown = problems.slice(0, PROBLEMS_IN_MESSAGE).map(formatSubmissionProblem);
    const more =
      problems.length > PROBLEMS_IN_MESSAGE ? ` (and ${problems.length - PROBLEMS_IN_MESSAGE} more)` : "";
    super(status, problems.length > 0 ? `${summary}: ${shown.join("; ")}${more}` : summary, code);
  }

  override toBody(): SubmissionRejected {
    return { message: this.message, code: this.code ?? "submission_invalid", problems: this.problems };
  }
}

export function submissionRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    postSubmissionCall,
    async (request, reply) => {
      const { user } = requireSession(request);
      const key = idempotencyKeyOf(request);
      const { participantId, instrumentId } = request.params;
      const [payload] = request.body;

      const participant = await findAccessibleParticipant(ctx.db, user.id, participantId);
      if (!participant) throw participantForbidden();
      const [instrument] = await ctx.db
        .select()
        .from(instruments)
        .where(
          and(
            eq(instruments.id, instrumentId),
            eq(instruments.studyId, participant.studyId),
            eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
          ),
        );
      if (!instrument) {
        throw new HttpError(
          404,
          `Instrument ${instrumentId} is not a clinician instrument of this participant's study.`,
          "instrument_not_found",
        );
      }
      if (!isPermitted(instrument.permissions, await studyRoleOf(ctx.db, user.id, participant.studyId))) {
        throw administerForbidden(instrument.displayName);
      }
      await requireConsentFirst(ctx.db, participant.id);

      const definitionRow =
        payload!.version_number <= MAX_ID
          ? await definitionVersion(ctx.db, instrument.id, payload!.version_number)
          : undefined;
      if (!definitionRow) {
        throw new SubmissionRejectedError(
          "This instrument version is unknown",
          [
            {
              field: "version_number",
              message: `instrument ${instrument.id} has no definition version ${payload!.version_number}`,
            },
          ],
          "unknown_version",
        );
      }
      const check = validateSubmission(parsedDefinition(ctx.db, definitionRow), payload!, {
        studyId: participant.studyId,
        participantId: participant.id,
        instrumentId: instrument.id,
      });
      if (!check.ok && check.showIfMismatches.length > 0) {
        // Answers that disagree with the show-if logic (an answer to a hidden question, a
        // required shown one missing) are bad input, refused as such (400) and named question by
        // question; an answer to a question the logic hides is never stored.
        throw new SubmissionRejectedError(
          `The answers do not follow the instrument's show-if logic (${check.showIfMismatches.join(", ")})`,
          check.problems,
          "show_if_mismatch",
          400,
        );
      }
      if (!check.ok) throw new SubmissionRejectedError("The submission was refused", check.problems);
      await requireUploadedAttachments(ctx, participant.id, payload!.attachments);
      await requireInstanceOf(ctx, payload!.instrument_instance_id, participant.id, instrument.id);

      const result = await runIdempotentWrite(ctx.db, {
        ...jsonRequestIdentity(request, user.id, key),
        write: async (tx) => {
          const recorded = await recordSubmission(tx, {
            participantId: participant.id,
            instrumentId: instrument.id,
            user: { id: user.id, username: user.username },
            payload: payload!,
            versionNumber: definitionRow.versionNumber,
            scores: check.scores,
            now: new Date(),
          });
          const body: SubmissionResponse = {
            id: recorded.submissionId,
            instance_id: payload!.instance_id,
            instrument_instance_id: recorded.instrumentInstanceId,
            already_completed: recorded.alreadyCompleted,
            scores: check.scores,
          };
          return { statusCode: 201, body };
        },
      });
      return reply
        .code(result.statusCode)
        .header("idempotent-replayed", String(result.replayed))
        .send(result.body);
    },
    { bodyLimit: SUBMISSION_MAX_BYTES },
  );
}

/** Every attachment must be a file this participant has uploaded for a clinician instrument. */
async function requireUploadedAttachments(ctx: AppContext, participantId: number, attachments: string[]) {
  if (attachments.length === 0) return;
  const uploaded = await ctx.db
    .selectDistinct({ fileName: uploadedFiles.fileName })
    .from(uploadedFiles)
    .where(
      and(
        eq(uploadedFiles.participantId, participantId),
        eq(uploadedFiles.moduleName, FILE_MODULE.clinician),
        inArray(uploadedFiles.fileName, attachments),
      ),
    );
  const known = new Set(uploaded.map((row) => row.fileName));
  const problems = attachments.flatMap((name, index) =>
    known.has(name)
      ? []
      : [{ field: `attachments[${index}]`, message: `"${name}" was not uploaded for this participant` }],
  );
  if (problems.length > 0) {
    throw new SubmissionRejectedError("An attachment was not uploaded", problems, "attachment_missing");
  }
}

/** A named instance must be one of this participant's instances of this instrument. */
async function requireInstanceOf(
  ctx: AppContext,
  instanceId: number | undefined,
  participantId: number,
  instrumentId: number,
) {
  if (instanceId === undefined) return;
  const [instance] =
    instanceId > 0 && instanceId <= MAX_ID
      ? await ctx.db
          .select({
            participantId: instrumentInstances.participantId,
            instrumentId: instrumentInstances.instrumentId,
          })
          .from(instrumentInstances)
          .where(eq(instrumentInstances.id, instanceId))
      : [];
  if (!instance || instance.participantId !== participantId || instance.instrumentId !== instrumentId) {
    throw new SubmissionRejectedError(
      "The instrument instance is unknown",
      [
        {
          field: "instrument_instance_id",
          message: `${instanceId} is not an instance of instrument ${instrumentId} for participant ${participantId}`,
        },
      ],
      "instance_unknown",
    );
  }
}

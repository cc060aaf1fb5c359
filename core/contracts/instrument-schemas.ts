/**
 * The survey engine's calls (spec 02 section 7): the definition call, the submission call, the
 * participant's instrument history and the pending instruments across participants. The server
 * validates with these schemas; the client types its calls with them. Field names are the
 * spec's; timestamps are ISO strings; ids of rows are numbers.
 */
import * as z from "zod/mini";
import { surveyDefinition } from "./survey-definition.ts";
import { answerRecordSchema, submissionPayload } from "./survey-submission.ts";
import { isoMoment, rowId } from "./input-bounds.ts";

/** Header versions the client sends (spec 02 section 7); the server does not refuse others. */
export const SUBMISSION_HEADER_VERSION = "010";
export const PENDING_INSTRUMENTS_HEADER_VERSION = "3.4.0";

/** Submissions may carry scribbles as data URLs: the submission call accepts bodies this large. */
export const SUBMISSION_MAX_BYTES = 8 * 1024 * 1024;
/** The pending instruments call answers at most this many instances, the oldest first. */
export const PENDING_INSTRUMENTS_MAX = 500;

/** The content type of a definition served as a zip. */
export const DEFINITION_ZIP_CONTENT_TYPE = "application/zip";

const timestamp = isoMoment();

// ---------------------------------------------------------------------------------------------
// GET /control/studies/{studyId}/instruments/{instrumentId}/{instrument}
// GET /control/admin/studies/{studyId}/instruments/{instrumentId}/{instrument}
// Any query string is accepted and ignored.

export const definitionParams = z.object({
  studyId: rowId("studyId"),
  instrumentId: rowId("instrumentId"),
  /** The instrument's slug: the last segment of its url. */
  instrument: z
    .string()
    .check(z.minLength(1, "instrument must not be empty"), z.maxLength(200, "instrument is too long")),
});
export type DefinitionParams = z.infer<typeof definitionParams>;

/**
 * The latest definition of the instrument, as JSON, or (application/zip) a zip holding one file
 * `<slug>.json` with the same JSON. `version` is the definition's version number, which the
 * submission names back as version_number; display_name and permissions are the instrument's.
 */
export const definitionResponse = z.extend(surveyDefinition, {
  version: z.number().check(z.int(), z.positive()),
  instrument_id: z.number().check(z.int()),
  /** The instrument's name in lists, and the role codes that may administer it. */
  display_name: z.string(),
  permissions: z.array(z.string()),
  /**
   * The app version whose engine checked this definition on the server, in full (the zod schema
   * and the cross-checks), its defaults filled in; absent when it did not pass. An app of that
   * version takes the definition as checked; any other validates it itself.
   */
  validated_for_app: z.optional(z.string()),
});
export type DefinitionResponse = z.infer<typeof definitionResponse>;

/** The path of the definition call the client uses: the instrument url under admin/studies. */
export function definitionPath(instrumentUrl: string) {
  return `/control${instrumentUrl.replace(/^\/studies\//, "/admin/studies/")}`;
}

// ---------------------------------------------------------------------------------------------
// POST /control/clinro/participant/{participantId}/instruments/{instrumentId}/submission
// Header version 010; Idempotency-Key; body: a JSON array holding exactly one submission.

export const submissionParams = z.object({
  participantId: rowId("participantId"),
  instrumentId: rowId("instrumentId"),
});
export type SubmissionParams = z.infer<typeof submissionParams>;

export const submissionRequest = z
  .array(submissionPayload)
  .check(z.length(1, "the body must be an array holding exactly one submission"));
export type SubmissionRequest = z.infer<typeof submissionRequest>;

/** A score as the server computed it from the answers it received. */
export const submittedScore = z.looseObject({
  id: z.string(),
  name: z.string(),
  formula: z.string(),
  final_value: z.number(),
});
export type SubmittedScore = z.infer<typeof submittedScore>;

/** 201: the stored submission. */
export const submissionResponse = z.object({
  /** The stored submission's id. */
  id: z.number().check(z.int()),
  /** The payload's instance_id, as the client sent it. */
  instance_id: z.union([z.number(), z.string()]),
  /** The instrument instance this submission completed (or found already completed). */
  instrument_instance_id: z.number().check(z.int()),
  /**
   * True when that instance had already been completed (on another device, say): the submission
   * is stored all the same and the instance keeps its first completion.
   */
  already_completed: z.boolean(),
  scores: z.array(submittedScore),
});
export type SubmissionResponse = z.infer<typeof submissionResponse>;

/** One reason a submission was refused (422): the question it is about, and what is wrong. */
export const submissionProblem = z.object({
  question: z.optional(z.string()),
  field: z.optional(z.string()),
  message: z.string(),
});
export type SubmissionProblem = z.infer<typeof submissionProblem>;

/** The 422 body of a refused submission: the error body plus the problems, one per question. */
export const submissionRejected = z.object({
  message: z.string(),
  code: z.string(),
  problems: z.array(submissionProblem),
});
export type SubmissionRejected = z.infer<typeof submissionRejected>;

// ---------------------------------------------------------------------------------------------
// GET /control/participants/{id}/instrument_history/clinro

export const historyParams = z.object({ id: rowId("id") });

/** One submission of a clinician instrument for the participant, newest first. */
export const historyCompletedItem = z.object({
  submission_id: z.number().check(z.int()),
  instrument_id: z.number().check(z.int()),
  name: z.string(),
  /** The instrument instance the submission completed. */
  instance_id: z.nullable(z.number().check(z.int())),
  completion: timestamp,
  /** The completer's display name. */
  completed_by: z.string(),
  version_number: z.number().check(z.int()),
  scores: z.array(submittedScore),
});
export type HistoryCompletedItem = z.infer<typeof historyCompletedItem>;

/** One open instance of a clinician instrument: started, not completed, not expired or persistent. */
export const historyPendingItem = z.object({
  instrument_id: z.number().check(z.int()),
  name: z.string(),
  instance_id: z.number().check(z.int()),
  start_date: timestamp,
  expiration: z.nullable(timestamp),
  permissions: z.array(z.string()),
  url: z.string(),
});
export type HistoryPendingItem = z.infer<typeof historyPendingItem>;

export const historyResponse = z.object({
  instruments: z.object({
    completed: z.array(historyCompletedItem),
    pending: z.array(historyPendingItem),
  }),
});
export type HistoryResponse = z.infer<typeof historyResponse>;

// ---------------------------------------------------------------------------------------------
// GET /control/participants/{id}/instrument_history/clinro/{submissionId}

export const submissionAnswersParams = z.object({ id: rowId("id"), submissionId: rowId("submissionId") });

/** One submitted clinician instrument, read-only: its facts as the history lists them, and its answers. */
export const submissionAnswersResponse = z.object({
  ...historyCompletedItem.shape,
  /** The answer records as they were submitted (the payload's answers), in the order shown. */
  answers: z.array(answerRecordSchema),
});
export type SubmissionAnswersResponse = z.infer<typeof submissionAnswersResponse>;

// ---------------------------------------------------------------------------------------------
// GET /control/pending_instruments, optional ?study_id (header version 3.4.0)

export const pendingInstrumentsQuery = z.object({ study_id: z.optional(rowId("study_id")) });

/** An open clinician instrument instance of a participant the user may see. */
export const pendingInstrument = z.object({
  participant_id: z.number().check(z.int()),
  subject_id: z.string(),
  study_id: z.number().check(z.int()),
  site_id: z.number().check(z.int()),
  instrument_id: z.number().check(z.int()),
  instance_id: z.number().check(z.int()),
  name: z.string(),
  permissions: z.array(z.string()),
  /** /studies/{studyId}/instruments/{instrumentId}/{instrument} */
  url: z.string(),
  start_date: timestamp,
  expiration: z.nullable(timestamp),
});
export type PendingInstrument = z.infer<typeof pendingInstrument>;

export const pendingInstrumentsResponse = z.object({
  /** Oldest start first; at most PENDING_INSTRUMENTS_MAX. */
  instruments: z.array(pendingInstrument),
  /** True when there were more than PENDING_INSTRUMENTS_MAX. */
  truncated: z.boolean(),
});
export type PendingInstrumentsResponse = z.infer<typeof pendingInstrumentsResponse>;

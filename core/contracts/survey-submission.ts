/**
 * The submission payload on the wire (spec 02 section 3, "Submission payload"): the answer
 * records and scored scores, and the payload that holds them. The survey engine builds it
 * (core/survey-engine/submission.ts); the server checks each one it receives against it.
 */
import * as z from "zod/mini";
import { isoMoment } from "./input-bounds.ts";
import { ANSWER_STATES, type AnswerRecord } from "./survey-answers.ts";
import { score, type Score } from "./survey-definition.ts";

const timestamp = isoMoment();

/** browser_info is a user agent string; longer ones are cut by the client, refused by the schema. */
export const BROWSER_INFO_MAX_CHARACTERS = 1000;

export const answerEntrySchema = z.object({
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  question: z.optional(z.string()),
  score_value: z.optional(z.number()),
  choice_id: z.optional(z.string()),
  signature_type: z.optional(z.string()),
  signed_date: z.optional(z.string()),
});

export const answerRecordSchema = z.object({
  id: z.string().check(z.minLength(1)),
  label: z.string(),
  name: z.string(),
  type: z.string().check(z.minLength(1)),
  required: z.boolean(),
  state: z.enum(ANSWER_STATES),
  answer: z.array(answerEntrySchema),
  time_answered: z.optional(timestamp),
  sibling_id: z.optional(z.string()),
});

export const scoredScoreSchema = z.extend(score, { final_value: z.number() });
/** A definition score with its computed value. */
export type ScoredScore = Score & { final_value: number };

/**
 * One submission. The survey part (title, questions, siblings, anything else the definition
 * held) is kept loose: the server checks the answers against its own stored definition.
 */
export const submissionPayload = z.looseObject({
  /** The definition's id. */
  id: z.union([z.string().check(z.minLength(1)), z.number().check(z.int())]),
  type: z.string().check(z.minLength(1)),
  order: z.array(z.string()),
  questions: z.record(z.string(), z.unknown()),
  /** The survey copy that is submitted has no url (spec 02 section 3). */
  url: z.optional(z.undefined()),
  /** The records of the questions shown, in the order they were shown. */
  answers: z.array(answerRecordSchema),
  scores: z.array(scoredScoreSchema),
  /** The user id of the clinician. */
  completed_by: z.number().check(z.int()),
  completion: timestamp,
  /** The clinician's username. */
  identity: z.string().check(z.minLength(1)),
  state: z.literal("COMPLETE"),
  start_time: timestamp,
  /** The portal's version, e.g. "3.75.1". */
  version: z.string().check(z.minLength(1)),
  /** The definition version the clinician answered. */
  version_number: z.number().check(z.int(), z.nonnegative()),
  /** The uploaded file names the answers refer to (image capture photos). */
  attachments: z.array(z.string().check(z.minLength(1))),
  instrument_id: z.number().check(z.int()),
  browser_info: z.string().check(z.maxLength(BROWSER_INFO_MAX_CHARACTERS)),
  /** The instance completed, or an id the client made up when there was none. */
  instance_id: z.union([z.number().check(z.int()), z.string().check(z.minLength(1))]),
  instrument_instance_id: z.optional(z.number().check(z.int())),
});
export type SubmissionPayload = z.infer<typeof submissionPayload>;

// The schemas describe the engine's types exactly: a change to one without the other fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const recordSchemaMatchesType: Same<z.infer<typeof answerRecordSchema>, AnswerRecord> = true;
const scoreSchemaMatchesType: Same<z.infer<typeof scoredScoreSchema>, ScoredScore> = true;
void recordSchemaMatchesType;
void scoreSchemaMatchesType;

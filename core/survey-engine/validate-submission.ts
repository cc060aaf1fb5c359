/**
 * The server's check of a received submission against the definition it stored, with the same
 * engine the app answered with: the same "answered", the same show-if logic, the same scores.
 * It refuses what the app could not have produced (a choice the question does not have, a hidden
 * question answered, a required one left empty) and returns the records and the scores the
 * server stores: its own scores, never the client's.
 */
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import { answerStateOf, hasValue, mustBeAnswered, type AnswerLookup } from "./answer-state.ts";
import {
  isKnownQuestionType,
  PHOTOS_MAX_PER_QUESTION,
  TEXT_MAX_CHARACTERS,
  type Question,
  type QuestionAttributes,
  type SubQuestion,
  type SurveyDefinition,
} from "../contracts/survey-definition.ts";
import { choiceOf, questionOf, selectedChoiceId, subQuestionOf } from "./definition-lookup.ts";
import { scoreSurvey } from "./scores.ts";
import { type ScoredScore } from "../contracts/survey-submission.ts";
import { dateOf, instantOf, secondOfDay, visibilityOf } from "./show-if.ts";
import { versionNumberOf } from "./submission.ts";
import { type SubmissionPayload } from "../contracts/survey-submission.ts";

/** A scribble is a PNG data URL of at most this many characters. */
export const SCRIBBLE_MAX_BYTES = 512 * 1024;
/** A numeric rating scale runs from 0 to 10 unless its attributes say otherwise. */
export const RATING_SCALE_DEFAULT_MIN = 0;
export const RATING_SCALE_DEFAULT_MAX = 10;

/** One thing wrong with a submission: the question (when about one), where, and what. */
export type SubmissionProblem = { question?: string; field?: string; message: string };

export type SubmissionCheck =
  | { ok: true; records: AnswerRecord[]; scores: ScoredScore[] }
  | {
      ok: false;
      problems: SubmissionProblem[];
      /**
       * The questions whose records disagree with the show-if logic: answered while hidden, or
       * required, shown and not answered. A client that lets visibility fall behind the answers
       * sends these; the route answers them apart from answers the portal could not produce.
       */
      showIfMismatches: string[];
    };

/** What the server knows about the submission beyond the payload, to check photo file names. */
export type SubmissionContext = { studyId?: number; participantId?: number; instrumentId?: number };

/** `Question "q3", field "answers[2].answer[0]": message`. */
export function formatSubmissionProblem(problem: SubmissionProblem): string {
  const where = [
    problem.question === undefined ? undefined : `Question "${problem.question}"`,
    problem.field === undefined ? undefined : `field "${problem.field}"`,
  ].filter((part) => part !== undefined);
  if (where.length === 0) return problem.message;
  const text = where.join(", ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}: ${problem.message}`;
}

/**
 * Checks a parsed submission payload against the definition it names. On success returns its
 * records and the scores recomputed from them; otherwise every problem found.
 */
export function validateSubmission(
  definition: SurveyDefinition,
  payload: SubmissionPayload,
  context: SubmissionContext = {},
): SubmissionCheck {
  const problems: SubmissionProblem[] = [];
  const report = (problem: SubmissionProblem) => problems.push(problem);

  if (String(payload.id) !== String(definition.id)) {
    report({ field: "id", message: `the submission is for survey "${payload.id}", not "${definition.id}"` });
  }
  const versionNumber = versionNumberOf(definition);
  if (versionNumber !== undefined && payload.version_number !== versionNumber) {
    report({
      field: "version_number",
      message: `the submission answers version ${payload.version_number}, but this definition is version ${versionNumber}`,
    });
  }
  if (context.instrumentId !== undefined && payload.instrument_id !== context.instrumentId) {
    report({
      field: "instrument_id",
      message: `the submission names instrument ${payload.instrument_id}, not ${context.instrumentId}`,
    });
  }

  const byId = new Map<string, AnswerRecord>();
  const photoContext = {
    ...context,
    instrumentId: payload.instrument_id,
    attachments: new Set(payload.attachments),
  };
  payload.answers.forEach((record, index) => {
    const field = `answers[${index}]`;
    const at = (message: string, subField = "") =>
      report({ question: record.id, field: `${field}${subField}`, message });
    const question = questionOf(definition, record.id);
    if (!question) return at("is not a question of this survey");
    if (byId.has(record.id)) return at("is answered more than once");
    byId.set(record.id, record);
    if (!isKnownQuestionType(question.type)) {
      return at(`is a ${question.type} question, which the portal cannot show, so it cannot be answered`);
    }
    if (record.type !== question.type)
      return at(`is a ${question.type} question, not ${record.type}`, ".type");
    const expected = answerStateOf(question, record.answer);
    if (record.state !== expected) at(`is ${record.state} but its answer makes it ${expected}`, ".state");
    if (record.state === "ANSWERED" && record.time_answered === undefined) {
      at("is answered but has no time_answered", ".time_answered");
    }
    if (record.state !== "ANSWERED" && record.time_answered !== undefined) {
      at("has a time_answered but is not answered", ".time_answered");
    }
    for (const problem of entryProblems(question, record.answer, photoContext)) {
      at(problem.message, `.answer${problem.entry === undefined ? "" : `[${problem.entry}]`}`);
    }
  });

  const lookup: AnswerLookup = (questionId) => byId.get(questionId);
  const ordered = new Set(definition.order);
  // Show-if evaluated again, as the flow does: a question is shown by the records of the shown
  // questions before it, so a hidden question's record never shows another.
  const { shown } = visibilityOf(definition, lookup);
  const showIfMismatches: string[] = [];
  for (const questionId of definition.order) {
    const question = questionOf(definition, questionId);
    if (!question) continue;
    const record = lookup(questionId);
    if (!shown.has(questionId) && record) {
      showIfMismatches.push(questionId);
      report({ question: questionId, message: "is answered, but its show-if logic hides it" });
    } else if (shown.has(questionId) && mustBeAnswered(question) && record?.state !== "ANSWERED") {
      showIfMismatches.push(questionId);
      report({ question: questionId, message: "is required but was not answered" });
    }
  }
  for (const record of byId.values()) {
    if (!ordered.has(record.id)) {
      report({ question: record.id, message: "is not in the order of this survey, so it is never asked" });
    }
  }

  const scores = scoreSurvey(definition, lookup);
  checkScores(scores, payload.scores, report);

  return problems.length > 0
    ? { ok: false, problems, showIfMismatches }
    : { ok: true, records: [...byId.values()], scores };
}

function checkScores(
  computed: readonly ScoredScore[],
  received: readonly ScoredScore[],
  report: (problem: SubmissionProblem) => void,
) {
  const expected = new Map(computed.map((score) => [score.id, score.final_value]));
  const seen = new Set<string>();
  received.forEach((score, index) => {
    const field = `scores[${index}]`;
    const value = expected.get(score.id);
    if (value === undefined) {
      report({ field: `${field}.id`, message: `score "${score.id}" is not a score of this survey` });
    } else if (seen.has(score.id)) {
      report({ field: `${field}.id`, message: `score "${score.id}" is sent more than once` });
    } else if (Math.abs(score.final_value - value) > 1e-9) {
      report({
        field: `${field}.final_value`,
        message: `score "${score.id}" is ${value} from the answers, not ${score.final_value}`,
      });
    }
    seen.add(score.id);
  });
  for (const score of computed) {
    if (!seen.has(score.id)) report({ field: "scores", message: `score "${score.id}" is missing` });
  }
}

// ---------------------------------------------------------------------------------------------
// entries, by question type

type EntryProblem = { entry?: number; message: string };
type PhotoContext = SubmissionContext & { instrumentId: number; attachments: ReadonlySet<string> };

const DATE_VALUE = /^\d{4}-\d{2}-\d{2}T00:00:00(\.000)?Z$/;
const DATETIME_VALUE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00(\.000)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_VALUE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const SCRIBBLE_PREFIX = "data:image/png;base64,";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The unique stamp of a photo file name (answer-values.ts photoFileName). */
const PHOTO_STAMP = "[A-Za-z0-9-]+";

function describe(value: unknown) {
  return typeof value === "string" && value.length > 60
    ? `"${value.slice(0, 57)}..."`
    : JSON.stringify(value);
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The photo file name pattern of spec 02 section 5: study_participant_instrument_question_stamp.jpeg. */
export function photoFileNamePattern(questionId: string, context: PhotoContext): RegExp {
  const safeQuestionId = questionId.replace(/[^A-Za-z0-9_.-]/g, "-");
  const study = context.studyId === undefined ? "\\d+" : String(context.studyId);
  const participant = context.participantId === undefined ? "\\d+" : String(context.participantId);
  return new RegExp(
    `^${study}_${participant}_${context.instrumentId}_${escapeRegExp(safeQuestionId)}_${PHOTO_STAMP}\\.jpeg$`,
  );
}

function boundsProblem(value: number, attributes: QuestionAttributes, min?: number, max?: number) {
  const low = attributes.min ?? min;
  const high = attributes.max ?? max;
  if (low !== undefined && value < low) return `${value} is below the minimum ${low}`;
  if (high !== undefined && value > high) return `${value} is above the maximum ${high}`;
  return undefined;
}

/** What is wrong with a number for an integer, decimal or rating-scale answer. */
function numberProblem(
  value: AnswerEntry["value"],
  kind: "integer" | "decimal" | "numeric_rating_scale",
  attributes: QuestionAttributes,
): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return `${describe(value)} is not a number`;
  if (kind !== "decimal" && !Number.isInteger(value)) return `${value} is not a whole number`;
  const decimals = attributes.decimals ?? 1;
  if (kind === "decimal" && Number(value.toFixed(decimals)) !== value) {
    return `${value} has more than ${decimals === 1 ? "one decimal" : `${decimals} decimals`}`;
  }
  return kind === "numeric_rating_scale"
    ? boundsProblem(value, attributes, RATING_SCALE_DEFAULT_MIN, RATING_SCALE_DEFAULT_MAX)
    : boundsProblem(value, attributes);
}

function textProblem(value: AnswerEntry["value"]): string | undefined {
  if (typeof value !== "string") return `${describe(value)} is not text`;
  const length = [...value].length;
  return length > TEXT_MAX_CHARACTERS
    ? `the text holds ${length} characters, more than ${TEXT_MAX_CHARACTERS}`
    : undefined;
}

/** What is wrong with an entry naming a choice (select, likert, a matrix row's column). */
function choiceProblem(question: Question, entry: AnswerEntry): string | undefined {
  const choiceId = selectedChoiceId(entry);
  if (choiceId === undefined) return "names no choice";
  const choice = choiceOf(question, choiceId);
  if (!choice) return `"${choiceId}" is not a choice of this question`;
  if (entry.value !== choiceId)
    return `its value ${describe(entry.value)} is not its choice id "${choiceId}"`;
  if (entry.label !== choice.label)
    return `its label ${describe(entry.label)} is not the label of choice "${choiceId}"`;
  if (entry.score_value !== choice.score_value) {
    return `its score_value ${describe(entry.score_value ?? null)} is not the score_value of choice "${choiceId}" (${describe(choice.score_value ?? null)})`;
  }
  return undefined;
}

function subQuestionEntries(
  question: Question,
  entries: readonly AnswerEntry[],
  noun: "row" | "field",
  check: (sub: SubQuestion, entry: AnswerEntry) => string | undefined,
): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const sub = entry.question === undefined ? undefined : subQuestionOf(question, entry.question);
    let message: string | undefined;
    if (entry.question === undefined) message = `names no ${noun}`;
    else if (!sub) message = `"${entry.question}" is not a ${noun} of this question`;
    else if (seen.has(entry.question)) message = `${noun} "${entry.question}" is answered more than once`;
    else message = check(sub, entry);
    if (entry.question !== undefined) seen.add(entry.question);
    if (message) problems.push({ entry: index, message });
  });
  return problems;
}

function multipleFieldProblem(sub: SubQuestion, entry: AnswerEntry): string | undefined {
  if (!hasValue(entry.value)) return undefined;
  switch (sub.type) {
    case "integer":
    case "decimal":
      return numberProblem(entry.value, sub.type, sub.attributes);
    case "text":
    case undefined:
      return textProblem(entry.value);
  }
}

/** The problems of a record's entries for its question's type. */
function entryProblems(
  question: Question,
  entries: readonly AnswerEntry[],
  context: PhotoContext,
): EntryProblem[] {
  const each = (check: (entry: AnswerEntry) => string | undefined): EntryProblem[] =>
    entries.flatMap((entry, index) => {
      const message = check(entry);
      return message === undefined ? [] : [{ entry: index, message }];
    });
  const atMostOne = (): EntryProblem[] =>
    entries.length > 1
      ? [{ message: `a ${question.type} answer holds one value, not ${entries.length}` }]
      : [];

  switch (question.type) {
    case "introduction":
      return entries.length > 0 ? [{ message: "an introduction holds no answer" }] : [];
    case "select_one":
    case "likert":
      return [...atMostOne(), ...each((entry) => choiceProblem(question, entry))];
    case "select_multiple": {
      const chosen = entries.map(selectedChoiceId);
      return [
        ...each((entry) => choiceProblem(question, entry)),
        ...(new Set(chosen).size < chosen.length ? [{ message: "a choice is selected more than once" }] : []),
      ];
    }
    case "matrix":
      return subQuestionEntries(question, entries, "row", (_row, entry) => choiceProblem(question, entry));
    case "multiple_field":
      return subQuestionEntries(question, entries, "field", multipleFieldProblem);
    case "text":
      return [...atMostOne(), ...each((entry) => textProblem(entry.value))];
    case "integer":
    case "decimal":
    case "numeric_rating_scale": {
      const kind = question.type;
      return [...atMostOne(), ...each((entry) => numberProblem(entry.value, kind, question.attributes))];
    }
    case "date":
      return [
        ...atMostOne(),
        ...each((entry) =>
          typeof entry.value === "string" && DATE_VALUE.test(entry.value) && dateOf(entry.value) !== undefined
            ? undefined
            : `${describe(entry.value)} is not a date stored as midnight UTC (2026-11-22T00:00:00.000Z)`,
        ),
      ];
    case "datetime":
      return [
        ...atMostOne(),
        ...each((entry) =>
          typeof entry.value === "string" &&
          DATETIME_VALUE.test(entry.value) &&
          instantOf(entry.value) !== undefined
            ? undefined
            : `${describe(entry.value)} is not an ISO datetime with seconds zero (2026-11-22T13:30:00.000Z)`,
        ),
      ];
    case "time":
      return [
        ...atMostOne(),
        ...each((entry) =>
          typeof entry.value === "string" &&
          TIME_VALUE.test(entry.value) &&
          instantOf(entry.value) !== undefined &&
          secondOfDay(entry.value) !== undefined
            ? undefined
            : `${describe(entry.value)} is not an ISO time with its offset (2026-11-22T14:30:00+01:00)`,
        ),
      ];
    case "image_capture":
      return photoProblems(question, entries, context);
    case "scribble":
      return [...atMostOne(), ...each((entry) => scribbleProblem(entry.value))];
    default:
      return [];
  }
}

function photoProblems(
  question: Question,
  entries: readonly AnswerEntry[],
  context: PhotoContext,
): EntryProblem[] {
  const problems: EntryProblem[] = [];
  if (entries.length > PHOTOS_MAX_PER_QUESTION) {
    problems.push({ message: `holds ${entries.length} photos, more than ${PHOTOS_MAX_PER_QUESTION}` });
  }
  const pattern = photoFileNamePattern(question.id, context);
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const name = entry.value;
    let message: string | undefined;
    if (typeof name !== "string" || !pattern.test(name)) {
      message = `${describe(name)} is not a photo file name of this question (study_participant_instrument_question_stamp.jpeg)`;
    } else if (seen.has(name)) message = `photo "${name}" appears more than once`;
    else if (!context.attachments.has(name)) message = `photo "${name}" is not listed in attachments`;
    if (typeof name === "string") seen.add(name);
    if (message) problems.push({ entry: index, message });
  });
  return problems;
}

function scribbleProblem(value: AnswerEntry["value"]): string | undefined {
  if (
    typeof value !== "string" ||
    !value.startsWith(SCRIBBLE_PREFIX) ||
    !BASE64.test(value.slice(SCRIBBLE_PREFIX.length))
  ) {
    return "a drawing must be a PNG data URL (data:image/png;base64,...)";
  }
  return value.length > SCRIBBLE_MAX_BYTES
    ? `the drawing takes ${value.length} bytes, more than ${SCRIBBLE_MAX_BYTES}`
    : undefined;
}

/**
 * When a question counts as answered, and the record the flow keeps for it (spec 02 section 4,
 * "Answer state"). Plain functions over the entries a question screen produced; the flow, the
 * show-if logic, the scoring and the server's submission check all use these, so "answered"
 * means the same thing everywhere.
 */
import type { AnswerEntry, AnswerRecord, AnswerState, AnswerValue } from "../contracts/survey-answers.ts";
import { isKnownQuestionType, type Question } from "../contracts/survey-definition.ts";

/** Finds the record of a question by id; undefined when the question has no record. */
export type AnswerLookup = (questionId: string) => AnswerRecord | undefined;

/** A value exists: 0 and false count, null and empty or whitespace-only text do not. */
export function hasValue(value: AnswerValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number") return !Number.isNaN(value);
  return true;
}

/** A full date and time: a date, a time of at least hours and minutes, and a valid instant. */
const FULL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function isFullDatetime(value: AnswerValue): boolean {
  return typeof value === "string" && FULL_DATETIME.test(value) && Number.isFinite(Date.parse(value));
}

/**
 * The ids of a matrix's rows or a multiple field's fields: questions_order when given, else the
 * keys of `questions`.
 */
export function subQuestionIds(question: Question): string[] {
  if (question.questions_order && question.questions_order.length > 0) return [...question.questions_order];
  return Object.keys(question.questions ?? {});
}

/** The entries that answer one row or field of a matrix or multiple field. */
export function entriesFor(entries: readonly AnswerEntry[], subQuestionId: string): AnswerEntry[] {
  return entries.filter((entry) => entry.question === subQuestionId);
}

function everySubQuestionHasValue(question: Question, entries: readonly AnswerEntry[]): boolean {
  const ids = subQuestionIds(question);
  if (ids.length === 0) return false;
  return ids.every((id) => entriesFor(entries, id).some((entry) => hasValue(entry.value)));
}

/**
 * Whether entries answer a question (spec 02 sections 4 and 5): a value exists, and 0 counts.
 * A matrix is answered only when every row has an answer, a multiple field only when every field
 * has a value, a datetime only with both its date and its time, an image capture with at least
 * one photo. Any other type (including types the engine does not know) is answered when one of
 * its entries holds a value.
 */
export function isAnswered(question: Question, entries: readonly AnswerEntry[]): boolean {
  switch (question.type) {
    case "matrix":
    case "multiple_field":
      return everySubQuestionHasValue(question, entries);
    case "datetime":
      return entries.some((entry) => isFullDatetime(entry.value));
    default:
      return entries.some((entry) => hasValue(entry.value));
  }
}

/** Types that show something and hold no answer: they never wait for one, required or not. */
export const TYPES_WITHOUT_ANSWER = ["introduction", "prompt", "pdf", "submission"] as const;

export function holdsAnswer(question: Question) {
  return (
    isKnownQuestionType(question.type) && !(TYPES_WITHOUT_ANSWER as readonly string[]).includes(question.type)
  );
}

/**
 * Whether the flow waits for this question's answer (and the server insists on it): required,
 * of a type the portal shows, and of a type that holds an answer. A question of an unknown type
 * is rendered as nothing, so it cannot hold the clinician.
 */
export function mustBeAnswered(question: Question) {
  return question.attributes.required && holdsAnswer(question);
}

/** REQUIRED for an introduction, otherwise ANSWERED when answered and SKIPPED when not. */
export function answerStateOf(question: Question, entries: readonly AnswerEntry[]): AnswerState {
  if (question.type === "introduction") return "REQUIRED";
  return isAnswered(question, entries) ? "ANSWERED" : "SKIPPED";
}

/**
 * The record the flow keeps and submits for a completed question (spec 02 section 3,
 * "Submitted question record"). A skipped question keeps no entries (a half-filled matrix is
 * skipped, and its rows are not sent); time_answered is set only when answered.
 */
export function makeRecord(question: Question, entries: readonly AnswerEntry[], now: Date): AnswerRecord {
  const state = answerStateOf(question, entries);
  const record: AnswerRecord = {
    id: question.id,
    label: question.label,
    name: question.name ?? question.id,
    type: question.type,
    required: question.attributes.required,
    state,
    answer: state === "SKIPPED" ? [] : entries.map((entry) => ({ ...entry })),
  };
  if (state === "ANSWERED") record.time_answered = now.toISOString();
  if (question.sibling_id !== undefined) record.sibling_id = question.sibling_id;
  return record;
}

/**
 * Safe look-ups into a parsed definition. Ids come from authors and from submissions, so a
 * look-up must never reach the object prototype: `questions["constructor"]` on a plain object
 * would otherwise return a function. Every engine module looks ids up through these.
 */
import type { AnswerEntry } from "../contracts/survey-answers.ts";
import type { Choice, Question, SubQuestion, SurveyDefinition } from "../contracts/survey-definition.ts";

/** The record's own value under a key, never one inherited from Object.prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The question with this id, if the definition has one. */
export function questionOf(definition: SurveyDefinition, questionId: string): Question | undefined {
  return ownValue(definition.questions, questionId);
}

/** A choice of a select, likert or matrix question (for a matrix: a column). */
export function choiceOf(question: Question, choiceId: string): Choice | undefined {
  return ownValue(question.choices, choiceId);
}

/** A row of a matrix or a field of a multiple field. */
export function subQuestionOf(question: Question, subQuestionId: string): SubQuestion | undefined {
  return ownValue(question.questions, subQuestionId);
}

/** The choice id an entry names: its choice_id, else its value when that is a string. */
export function selectedChoiceId(entry: AnswerEntry): string | undefined {
  if (entry.choice_id !== undefined) return entry.choice_id;
  return typeof entry.value === "string" ? entry.value : undefined;
}

/**
 * The score of the choice an entry names: the definition's score_value (authoritative), else the
 * one the entry carries; undefined when neither has one.
 */
export function entryScore(question: Question, entry: AnswerEntry): number | undefined {
  const choiceId = selectedChoiceId(entry);
  const choice = choiceId === undefined ? undefined : choiceOf(question, choiceId);
  const score = choice?.score_value ?? entry.score_value;
  return typeof score === "number" && Number.isFinite(score) ? score : undefined;
}

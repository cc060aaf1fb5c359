/**
 * Show-if logic (spec 02 section 4): whether a question is shown, given the records of the
 * questions answered before it. Pure: the flow asks it when moving on, the server asks it when
 * checking which questions a submission should hold.
 *
 * Decisions where the spec is silent (docs/survey-format.md repeats them for authors):
 * - A term about an unanswered question (no record, or a record that is not ANSWERED) is false
 *   for every comparator except is_not_answered and is_not_selected, which are true.
 * - Choice questions compare by the selected choice's score_value when the term's value is a
 *   number; = and != with a choice id compare ids (for select multiple: "is among the
 *   selected"); >, >=, <, <= with a choice id compare the two choices' score_values.
 * - Dates compare calendar dates as written (YYYY-MM-DD); datetimes compare instants, and a term
 *   datetime written without an offset is read as UTC, so the app and the server agree; times
 *   compare the time of day as written in the answer's own offset.
 * - Text compares by exact equality (= and !=) or, when both sides are numbers, numerically.
 * - A comparison the types do not allow (a boolean with >, a word with a number question) is false.
 */
import type { AnswerEntry, AnswerRecord, AnswerValue } from "../contracts/survey-answers.ts";
import { entriesFor, hasValue, isAnswered, type AnswerLookup } from "./answer-state.ts";
import type { Comparator, Question, ShowIfTerm, SurveyDefinition } from "../contracts/survey-definition.ts";
import { choiceOf, entryScore, questionOf, selectedChoiceId, subQuestionOf } from "./definition-lookup.ts";

type ComparisonTerm = Extract<ShowIfTerm, { question: string }>;
type TermValue = ComparisonTerm["value"];

/**
 * Whether a question is shown: true without logic or with an empty show_if; otherwise its terms
 * joined by logic.operator (and when absent). `answers` finds the records made so far;
 * `definition` supplies the types and choices of the questions the terms name.
 */
export function isShown(question: Question, answers: AnswerLookup, definition: SurveyDefinition): boolean {
  const logic = question.logic;
  if (!logic || logic.show_if.length === 0) return true;
  return holds(logic.show_if, logic.operator, answers, definition);
}

/** Which questions are shown, and the records their terms may look at. */
export type Visibility = {
  /** The ids of the questions of order whose logic holds. */
  shown: ReadonlySet<string>;
  /** The records of shown questions only: a hidden question reads as unanswered. */
  counted: AnswerLookup;
};

/**
 * Walks the questions in order, each shown or not by the records counted before it, and counts
 * a question's record only when the question is shown. A record a question keeps after an
 * earlier answer hid it (going Back, changing an answer on the same screen) is as if never
 * given, for the questions after it too. Terms name only earlier questions
 * (validate-definition.ts), so one pass settles it; the flow and the server's check both ask
 * this, so they agree on what a submission must hold.
 */
export function visibilityOf(definition: SurveyDefinition, answers: AnswerLookup): Visibility {
  const shown = new Set<string>();
  const counted = new Map<string, AnswerRecord>();
  const countedLookup: AnswerLookup = (questionId) => counted.get(questionId);
  for (const questionId of definition.order) {
    const question = questionOf(definition, questionId);
    if (!question || !isShown(question, countedLookup, definition)) continue;
    shown.add(questionId);
    const record = answers(questionId);
    if (record) counted.set(questionId, record);
  }
  return { shown, counted: countedLookup };
}

/** Whether one show-if term holds (a boolean_combine term evaluates its nested terms). */
export function termHolds(term: ShowIfTerm, answers: AnswerLookup, definition: SurveyDefinition): boolean {
  if (term.comparator === "boolean_combine") return holds(term.terms, term.operator, answers, definition);
  return comparisonHolds(term, answers, definition);
}

function holds(
  terms: readonly ShowIfTerm[],
  operator: "and" | "or" | undefined,
  answers: AnswerLookup,
  definition: SurveyDefinition,
): boolean {
  const check = (term: ShowIfTerm) => termHolds(term, answers, definition);
  return operator === "or" ? terms.some(check) : terms.every(check);
}

/** The entries a term looks at, or undefined when that part of the question is not answered. */
function answeredEntries(
  term: ComparisonTerm,
  answers: AnswerLookup,
  target: Question | undefined,
): AnswerEntry[] | undefined {
  const record = answers(term.question);
  if (!record || record.state !== "ANSWERED") return undefined;
  if (term.sub_question !== undefined) {
    const entries = entriesFor(record.answer, term.sub_question).filter((entry) => hasValue(entry.value));
    return entries.length > 0 ? entries : undefined;
  }
  const answered = target
    ? isAnswered(target, record.answer)
    : record.answer.some((entry) => hasValue(entry.value));
  return answered ? record.answer.filter((entry) => hasValue(entry.value)) : undefined;
}

function comparisonHolds(term: ComparisonTerm, answers: AnswerLookup, definition: SurveyDefinition) {
  const target = questionOf(definition, term.question);
  const entries = answeredEntries(term, answers, target);
  switch (term.comparator) {
    case "is_answered":
      return entries !== undefined;
    case "is_not_answered":
      return entries === undefined;
    case "is_selected":
      return entries !== undefined && isSelected(entries, term.value);
    case "is_not_selected":
      return entries === undefined || !isSelected(entries, term.value);
    default:
      return entries !== undefined && compare(term, target, entries);
  }
}

function isSelected(entries: readonly AnswerEntry[], value: TermValue) {
  if (value === undefined) return false;
  const wanted = String(value);
  return entries.some((entry) => selectedChoiceId(entry) === wanted);
}

type Ordering = -1 | 0 | 1;
type OrderingComparator = Exclude<
  Comparator,
  "is_selected" | "is_not_selected" | "is_answered" | "is_not_answered"
>;

function orderOf<T extends number | string>(left: T, right: T): Ordering {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

function satisfies(comparator: OrderingComparator, ordering: Ordering): boolean {
  switch (comparator) {
    case "=":
      return ordering === 0;
    case "!=":
      return ordering !== 0;
    case ">":
      return ordering > 0;
    case ">=":
      return ordering >= 0;
    case "<":
      return ordering < 0;
    case "<=":
      return ordering <= 0;
  }
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** A number, or a string that is written as one ("3", "-2.5"); undefined otherwise. */
export function numberOf(value: AnswerValue | undefined): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
  return undefined;
}

type ValueKind = "choice" | "number" | "date" | "datetime" | "time" | "other";

function valueKind(target: Question | undefined, subQuestionId: string | undefined): ValueKind {
  if (!target) return "other";
  switch (target.type) {
    case "select_one":
    case "select_multiple":
    case "likert":
    case "matrix":
      return "choice";
    case "integer":
    case "decimal":
    case "numeric_rating_scale":
      return "number";
    case "date":
    case "datetime":
    case "time":
      return target.type;
    case "multiple_field": {
      const field = subQuestionId === undefined ? undefined : subQuestionOf(target, subQuestionId);
      return field?.type === "integer" || field?.type === "decimal" ? "number" : "other";
    }
    default:
      return "other";
  }
}

function compare(term: ComparisonTerm, target: Question | undefined, entries: AnswerEntry[]): boolean {
  const comparator = term.comparator as OrderingComparator;
  const value = term.value;
  if (value === undefined) return false;
  const first = entries[0]?.value;
  switch (valueKind(target, term.sub_question)) {
    case "choice":
      return target !== undefined && compareChoices(comparator, target, entries, value);
    case "number":
      return compareNumbers(
        comparator,
        numberOf(first),
        typeof value === "boolean" ? undefined : numberOf(value),
      );
    case "date":
      return compareOrdered(comparator, dateOf(first), dateOf(value));
    case "datetime":
      return compareOrdered(comparator, instantOf(first), instantOf(value));
    case "time":
      return compareOrdered(comparator, secondOfDay(first), secondOfDay(value));
    case "other":
      return compareOther(comparator, first, value);
  }
}

function compareOrdered(
  comparator: OrderingComparator,
  left: number | string | undefined,
  right: number | string | undefined,
) {
  if (left === undefined || right === undefined || typeof left !== typeof right) return false;
  return satisfies(comparator, orderOf(left, right));
}

function compareNumbers(comparator: OrderingComparator, left: number | undefined, right: number | undefined) {
  return compareOrdered(comparator, left, right);
}

function compareChoices(
  comparator: OrderingComparator,
  target: Question,
  entries: readonly AnswerEntry[],
  value: string | number | boolean,
): boolean {
  if (typeof value === "boolean") return false;
  if (typeof value === "string") {
    const named = choiceOf(target, value);
    if (named) {
      if (comparator === "=") return isSelected(entries, value);
      if (comparator === "!=") return !isSelected(entries, value);
      return compareNumbers(comparator, selectionScore(target, entries), named.score_value);
    }
  }
  return compareNumbers(comparator, selectionScore(target, entries), numberOf(value));
}

/** The score of what is selected: the sum over the entries (one entry for select one and a row). */
function selectionScore(target: Question, entries: readonly AnswerEntry[]): number | undefined {
  let total = 0;
  for (const entry of entries) {
    const score = entryScore(target, entry);
    if (score === undefined) return undefined;
    total += score;
  }
  return total;
}

function compareOther(
  comparator: OrderingComparator,
  answer: AnswerValue | undefined,
  value: string | number | boolean,
) {
  if (typeof value === "boolean" || typeof answer === "boolean") {
    if (comparator === "=") return answer === value;
    if (comparator === "!=") return answer !== value;
    return false;
  }
  const left = numberOf(answer);
  const right = numberOf(value);
  if (left !== undefined && right !== undefined) return compareNumbers(comparator, left, right);
  if (typeof answer !== "string") return false;
  if (comparator === "=") return answer === String(value);
  if (comparator === "!=") return answer !== String(value);
  return false;
}

const WRITTEN_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|T)/;

/** The calendar date as written (YYYY-MM-DD) of a date or ISO string, when it is a real date. */
export function dateOf(value: AnswerValue | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const match = WRITTEN_DATE.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return match[0];
}

const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const HAS_TIME = /T\d{2}:\d{2}/;

/** The instant of an ISO datetime in ms; without an offset it is read as UTC. */
export function instantOf(value: AnswerValue | undefined): number | undefined {
  if (typeof value !== "string" || dateOf(value) === undefined) return undefined;
  const text = value.trim();
  const withOffset = HAS_TIME.test(text) && !HAS_OFFSET.test(text) ? `${text}Z` : text;
  const instant = Date.parse(withOffset);
  return Number.isFinite(instant) ? instant : undefined;
}

const ISO_TIME = /T(\d{2}):(\d{2})(?::(\d{2}))?/;
const CLOCK_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?$/i;

/**
 * The time of day in seconds: of an ISO timestamp as written in its own offset
 * ("2026-11-22T14:30:00+01:00" is 14:30), or of a clock time ("14:00", "14:00:30", "2:00 PM").
 */
export function secondOfDay(value: AnswerValue | undefined): number | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const iso = ISO_TIME.exec(text);
  const clock = iso ? undefined : CLOCK_TIME.exec(text);
  const match = iso ?? clock;
  if (!match) return undefined;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3] ?? 0);
  const meridiem = clock?.[4]?.toLowerCase();
  if (meridiem !== undefined) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return hours * 3600 + minutes * 60 + seconds;
}

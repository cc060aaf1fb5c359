/**
 * What the question components store as answer values (spec 02 sections 4 and 5), as plain
 * functions: the conversions between what an input holds ("2026-11-22", "14:30", "1.25") and the
 * answer entry values of answers.ts, and back for pre-filling. No React, no Lingui: the
 * components in src/survey/questions/ call these and turn the codes returned into text.
 *
 * Dates are stored as midnight Z, datetimes as an ISO string with seconds zero (local time to
 * UTC), times as an ISO timestamp with the local offset; integers are rounded to a whole number
 * and decimals to their question's decimals (one, step 0.1, unless `decimals` says more).
 */
import type { AnswerEntry } from "../contracts/survey-answers.ts";
import type { Choice, Question, QuestionAttributes, SubQuestion } from "../contracts/survey-definition.ts";

const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_INPUT = /^(\d{2}):(\d{2})$/;
/** The wall-clock time written in an ISO timestamp, whatever its offset. */
const ISO_TIME = /T(\d{2}):(\d{2})/;
const MINUTES_PER_HOUR = 60;

function pad2(value: number) {
  return String(value).padStart(2, "0");
}

function parseDateInput(date: string) {
  const match = DATE_INPUT.exec(date);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const utc = new Date(Date.UTC(year, month - 1, day));
  // Rejects 2026-02-30 and the like, which Date.UTC would roll over.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) {
    return null;
  }
  return { year, month, day };
}

function parseTimeInput(time: string) {
  const match = TIME_INPUT.exec(time);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return { hour, minute };
}

/** "+01:00" for a Date#getTimezoneOffset() of -60 (offsets east of UTC are negative there). */
export function formatUtcOffset(timezoneOffsetMinutes: number): string {
  const east = -timezoneOffsetMinutes;
  const sign = east < 0 ? "-" : "+";
  const minutes = Math.abs(east);
  return `${sign}${pad2(Math.floor(minutes / MINUTES_PER_HOUR))}:${pad2(minutes % MINUTES_PER_HOUR)}`;
}

/** A date input's value ("2026-11-22") as stored: midnight Z; null when it is not a date. */
export function dateAnswerValue(date: string): string | null {
  const parts = parseDateInput(date);
  if (!parts) return null;
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).toISOString();
}

/** A stored date (midnight Z) back as a date input's value; "" when there is none. */
export function dateInputValue(value: unknown): string {
  if (typeof value !== "string") return "";
  const date = value.slice(0, 10);
  return parseDateInput(date) ? date : "";
}

/**
 * A time input's value ("14:30") as stored: today's date (of `now`, local) at that time, seconds
 * zero, with the local offset: "2026-11-22T14:30:00+01:00". Null when it is not a time.
 */
export function timeAnswerValue(time: string, now: Date): string | null {
  const parts = parseTimeInput(time);
  if (!parts) return null;
  const local = new Date(now.getFullYear(), now.getMonth(), now.getDate(), parts.hour, parts.minute, 0, 0);
  const date = `${local.getFullYear()}-${pad2(local.getMonth() + 1)}-${pad2(local.getDate())}`;
  return `${date}T${pad2(parts.hour)}:${pad2(parts.minute)}:00${formatUtcOffset(local.getTimezoneOffset())}`;
}

/** A stored time back as "HH:mm": the wall-clock time it was recorded with; "" when none. */
export function timeInputValue(value: unknown): string {
  if (typeof value !== "string") return "";
  const match = ISO_TIME.exec(value);
  if (!match) return "";
  const time = `${match[1]}:${match[2]}`;
  return parseTimeInput(time) ? time : "";
}

/**
 * A date and a time input's values as a stored datetime: that local time as an ISO string (UTC)
 * with seconds zero. Null unless both parts hold a value (spec 02 §5: otherwise SKIPPED).
 */
export function datetimeAnswerValue(date: string, time: string): string | null {
  const day = parseDateInput(date);
  const clock = parseTimeInput(time);
  if (!day || !clock) return null;
  return new Date(day.year, day.month - 1, day.day, clock.hour, clock.minute, 0, 0).toISOString();
}

/** A stored datetime back as the local date and time inputs' values; "" for each when none. */
export function datetimeInputValues(value: unknown): { date: string; time: string } {
  if (typeof value !== "string") return { date: "", time: "" };
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return { date: "", time: "" };
  return {
    date: `${instant.getFullYear()}-${pad2(instant.getMonth() + 1)}-${pad2(instant.getDate())}`,
    time: `${pad2(instant.getHours())}:${pad2(instant.getMinutes())}`,
  };
}

export type DayPeriod = "AM" | "PM";
/** A 12 hour clock's parts: hour "01" to "12", minute "00" to "59". */
export type TwelveHourTime = { hour: string; minute: string; period: DayPeriod };

/** "14:30" on a 12 hour clock (hh:mm A): 02:30 PM; null when it is not a time. */
export function toTwelveHour(time: string): TwelveHourTime | null {
  const parts = parseTimeInput(time);
  if (!parts) return null;
  const hour = parts.hour % 12 === 0 ? 12 : parts.hour % 12;
  return { hour: pad2(hour), minute: pad2(parts.minute), period: parts.hour < 12 ? "AM" : "PM" };
}

/** 12 hour clock parts back as "HH:mm" (12:00 AM is 00:00); null when a part is missing. */
export function fromTwelveHour(parts: Partial<TwelveHourTime>): string | null {
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  if (!parts.hour || !parts.minute || !parts.period) return null;
  if (!Number.isInteger(hour) || hour < 1 || hour > 12 || !Number.isInteger(minute) || minute > 59) {
    return null;
  }
  const hour24 = (hour % 12) + (parts.period === "PM" ? 12 : 0);
  return `${pad2(hour24)}:${pad2(minute)}`;
}

/** Reads a number field's text (a comma counts as the decimal separator); null when not a number. */
function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace(",", ".");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** An integer field's text rounded to a whole number (spec 02 §5); null when not a number. */
export function integerAnswerValue(text: string): number | null {
  const value = parseNumber(text);
  if (value === null) return null;
  // Math.round(-0.4) is -0: store 0.
  return Math.round(value) + 0;
}

/**
 * A decimal field's text rounded to its decimals (one unless the question's `decimals` says
 * more: step 0.1, 0.01...); null when not a number.
 */
export function decimalAnswerValue(text: string, decimals = 1): number | null {
  const value = parseNumber(text);
  if (value === null) return null;
  // Rounding in decimal notation: 0.15 * 10 is 1.4999999999999998 in binary.
  const shifted = String(value).includes("e")
    ? Math.round(value * 10 ** decimals)
    : Math.round(Number(`${value}e${decimals}`));
  return Number(`${shifted}e-${decimals}`) + 0;
}

export type RangeProblem = "below_min" | "above_max";

/** Whether a number lies within the inclusive bounds of the attributes; null when it does. */
export function numberRangeProblem(
  value: number,
  attributes: Pick<QuestionAttributes, "min" | "max">,
): RangeProblem | null {
  if (attributes.min !== undefined && value < attributes.min) return "below_min";
  if (attributes.max !== undefined && value > attributes.max) return "above_max";
  return null;
}

/** Matrix answer column area widths by choice count (spec 02 §5). */
const MATRIX_ANSWER_WIDTHS_PERCENT: Readonly<Record<number, number>> = {
  2: 30,
  3: 50,
  4: 60,
  5: 70,
  6: 70,
  7: 80,
};

/**
 * The share of a matrix row taken by its answer columns: 2 → 30 %, 3 → 50 %, 4 → 60 %,
 * 5 and 6 → 70 %, 7 → 80 %. Fewer choices take the narrowest width, more the widest.
 */
export function matrixAnswerWidthPercent(choiceCount: number): number {
  const clamped = Math.min(7, Math.max(2, Math.trunc(choiceCount)));
  return MATRIX_ANSWER_WIDTHS_PERCENT[clamped] ?? 80;
}

/** What a photo file name is built from (spec 02 §5). */
export type PhotoFileNameContext = { studyId: number; participantId: number; instrumentId: number };

/**
 * A captured photo's file name: `${studyId}_${participantId}_${instrumentId}_${questionId}_${stamp}.jpeg`.
 * Characters the upload does not accept in a file name (anything but letters, digits, _ . -)
 * become "-".
 */
export function photoFileName(context: PhotoFileNameContext, questionId: string, stamp: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_.-]/g, "-");
  return `${context.studyId}_${context.participantId}_${context.instrumentId}_${safe(questionId)}_${safe(stamp)}.jpeg`;
}

/** The choices of a question in choices_order (or their written order), with their ids. */
export function orderedChoices(question: Pick<Question, "choices" | "choices_order">) {
  const choices = question.choices ?? {};
  const ids = question.choices_order ?? Object.keys(choices);
  const ordered: { id: string; choice: Choice }[] = [];
  for (const id of ids) {
    const choice = choices[id];
    if (choice) ordered.push({ id, choice });
  }
  return ordered;
}

/** Matrix rows or multiple-field fields in questions_order (or their written order). */
export function orderedSubQuestions(question: Pick<Question, "questions" | "questions_order">) {
  const questions = question.questions ?? {};
  const ids = question.questions_order ?? Object.keys(questions);
  const ordered: SubQuestion[] = [];
  for (const id of ids) {
    const subQuestion = questions[id];
    if (subQuestion) ordered.push(subQuestion);
  }
  return ordered;
}

/** The entry of a chosen choice: {label, value: choiceId, choice_id, score_value}; null when unknown. */
export function choiceEntry(question: Pick<Question, "choices">, choiceId: string): AnswerEntry | null {
  const choice = question.choices?.[choiceId];
  if (!choice) return null;
  const entry: AnswerEntry = { label: choice.label, value: choiceId, choice_id: choiceId };
  if (choice.score_value !== undefined) entry.score_value = choice.score_value;
  return entry;
}

/** The choice id an entry names (choice_id, else a string value). */
export function entryChoiceId(entry: AnswerEntry | undefined): string | undefined {
  if (!entry) return undefined;
  if (entry.choice_id !== undefined) return entry.choice_id;
  return typeof entry.value === "string" ? entry.value : undefined;
}

/** A plain entry whose label is the value as written (text, numbers, dates, file names). */
export function valueEntry(value: string | number, label = String(value)): AnswerEntry {
  return { label, value };
}

export type NumberKind = "integer" | "decimal";
export type NumberFieldReading =
  { value: number; problem: null } | { value: null; problem: "empty" | "not_a_number" | RangeProblem };

/**
 * What a number field's text answers: the number rounded for its kind (integer: whole,
 * decimal: its decimals, one by default) when it lies within min and max, else why there is none.
 */
export function readNumberField(
  kind: NumberKind,
  text: string,
  attributes: Pick<QuestionAttributes, "min" | "max" | "decimals">,
): NumberFieldReading {
  if (text.trim() === "") return { value: null, problem: "empty" };
  const value = kind === "integer" ? integerAnswerValue(text) : decimalAnswerValue(text, attributes.decimals);
  if (value === null) return { value: null, problem: "not_a_number" };
  const problem = numberRangeProblem(value, attributes);
  return problem ? { value: null, problem } : { value, problem: null };
}

/** A stored number back as a number field's text; "" when there is none. */
export function numberInputValue(value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return value;
  return "";
}

/** Numeric rating scale points: whole numbers from min to max, 0 to 10 by default (at most 101). */
export function ratingScalePoints(attributes: Pick<QuestionAttributes, "min" | "max">): number[] {
  const min = Math.ceil(attributes.min ?? 0);
  const max = Math.floor(attributes.max ?? 10);
  const points: number[] = [];
  for (let point = min; point <= max && points.length <= 100; point++) points.push(point);
  return points;
}

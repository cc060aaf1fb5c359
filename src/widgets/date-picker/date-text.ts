/**
 * The date input's rules (spec 02 section 5): the text is read in the locale's short date format
 * (Intl's numeric date: en-US 1/31/2025, en-GB 31/01/2025, es 31/1/2025, de 31.1.2025, ja
 * 2025/1/31; a two-digit year is read too, as dateStyle "short" writes it: 1/31/25); only digits, that
 * format's separators and editing keys may be typed; a text that does not parse there, or names
 * a day that does not exist, is invalid; days can be disabled by the caller. Plain functions.
 */

export type DateFieldOrder = ReadonlyArray<"day" | "month" | "year">;
export type ShortDateFormat = {
  order: DateFieldOrder;
  separators: readonly string[];
  /** The sample day in that format with a four-digit year, as the field writes days. */
  example: string;
  /** Whether the format's separators hold a space (ko: 2025. 12. 31.), so a space may be typed. */
  spaced: boolean;
};

/** The keys that edit or move in a text field, always allowed. */
const EDITING_KEYS = new Set([
  "Backspace",
  "Delete",
  "Tab",
  "Enter",
  "Escape",
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
]);

/** The fields of the short date format (Intl's dateStyle "short", but the year in full). */
const NUMERIC_DAY: Intl.DateTimeFormatOptions = { year: "numeric", month: "numeric", day: "numeric" };

/** A fixed day (31 December 2025) whose parts are told apart by value. */
const SAMPLE_DATE = new Date(2025, 11, 31);

/** The order of day, month and year and the separators of the locale's short date format. */
export function shortDateFormat(locale: string): ShortDateFormat {
  const parts = new Intl.DateTimeFormat(locale, NUMERIC_DAY).formatToParts(SAMPLE_DATE);
  const order: Array<"day" | "month" | "year"> = [];
  const separators = new Set<string>();
  let spaced = false;
  for (const part of parts) {
    if (part.type === "day" || part.type === "month" || part.type === "year") order.push(part.type);
    else if (part.type === "literal") {
      separators.add(part.value.trim() || part.value);
      spaced ||= /\s/.test(part.value);
    }
  }
  return { order, separators: [...separators], example: writeDay(SAMPLE_DATE, locale), spaced };
}

/**
 * A day in the locale's short format, the year in four digits (12/31/2025 rather than en-US's
 * 12/31/25): a date of birth in 1945 must not read as 2045.
 */
function writeDay(date: Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { ...NUMERIC_DAY, ...(timeZone ? { timeZone } : {}) }).format(date);
}

/** Whether a key may be typed into the date field of this locale. */
export function isAllowedDateKey(key: string, locale: string): boolean {
  if (EDITING_KEYS.has(key)) return true;
  if (/^[0-9]$/.test(key)) return true;
  const format = shortDateFormat(locale);
  return format.separators.includes(key) || (key === " " && format.spaced);
}

export type DayOfYear = { year: number; month: number; day: number };

/** A two-digit year is read in this century (25 is 2025). */
function fullYear(text: string): number {
  const value = Number(text);
  return text.length <= 2 ? 2000 + value : value;
}

function exists({ year, month, day }: DayOfYear): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= lastDay;
}

/**
 * The day a text names in the locale's short date format, or null when it does not parse there
 * (wrong field count, a field that is not a number, a year that is not 2 or 4 digits, a day
 * that does not exist).
 */
export function parseShortDate(text: string, locale: string): DayOfYear | null {
  const { order, separators } = shortDateFormat(locale);
  const splitter = `[${separators.map((s) => s.replace(/[\\\]^-]/g, "\\$&")).join("")}\\s]+`;
  // A separator may end the format (ko: 2025. 12. 31.): leading and trailing ones are dropped.
  const trimmed = text.replace(new RegExp(`^${splitter}|${splitter}$`, "g"), "");
  if (!trimmed) return null;
  const fields = trimmed.split(new RegExp(splitter));
  if (fields.length !== order.length || fields.some((field) => !/^\d+$/.test(field))) return null;
  const value: DayOfYear = { year: 0, month: 0, day: 0 };
  for (const [index, name] of order.entries()) {
    const field = fields[index]!;
    if (name === "year") {
      if (field.length !== 2 && field.length !== 4) return null;
      value.year = fullYear(field);
    } else {
      if (field.length > 2) return null;
      value[name] = Number(field);
    }
  }
  return exists(value) ? value : null;
}

/** The text of a day in the locale's short date format, with a four-digit year. */
export function formatShortDate(value: DayOfYear, locale: string): string {
  return writeDay(new Date(Date.UTC(value.year, value.month - 1, value.day)), locale, "UTC");
}

export type DateTextState =
  | { kind: "empty" }
  | { kind: "invalid" }
  | { kind: "disabled"; value: DayOfYear }
  | { kind: "valid"; value: DayOfYear };

/** What a typed text is: empty, invalid, a disabled day, or a valid day. */
export function readDateText(
  text: string,
  locale: string,
  isDayDisabled?: (value: DayOfYear) => boolean,
): DateTextState {
  if (!text.trim()) return { kind: "empty" };
  const value = parseShortDate(text, locale);
  if (!value) return { kind: "invalid" };
  if (isDayDisabled?.(value)) return { kind: "disabled", value };
  return { kind: "valid", value };
}

/** A day as an ISO date, "2026-11-22" (what the forms and the answer values hold). */
export function isoOfDay({ year, month, day }: DayOfYear): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** An ISO date ("2026-11-22", or the date of a longer ISO string) as a day; null when none. */
export function dayOfIso(value: string | null | undefined): DayOfYear | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? "");
  if (!match) return null;
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return exists(day) ? day : null;
}

/** Whether a day comes before another (for disabled ranges such as "after today"). */
export function compareDays(a: DayOfYear, b: DayOfYear): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

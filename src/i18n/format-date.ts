/**
 * The one rule for dates and times shown anywhere in the portal (spec 01 and 02: DD-MMM-YYYY),
 * in the browser's language (the month's abbreviation from the dayjs locale set by
 * src/i18n/i18n.ts, for every locale dayjs ships):
 *
 * - a day: 22-Nov-2026 (formatShortDate), or 22-November-2026 (formatLongDate);
 * - a time of day: 14:05, on a 24-hour clock (formatTimeOfDay);
 * - a moment: 22-Nov-2026 14:05 (formatDateTime), with seconds and the time zone's name where a
 *   record needs them (a signature: 22-Nov-2026 14:05:09 CET).
 *
 * Typed dates are read in the locale's short format by the date input (src/widgets/date-picker).
 */
import dayjs from "dayjs";

/** The spec's short date: DD-MMM-YYYY, e.g. 22-Nov-2026. */
export const SHORT_DATE_FORMAT = "DD-MMM-YYYY";
/** The spec's long date: DD-MMMM-YYYY, e.g. 22-November-2026 (the month named in full). */
export const LONG_DATE_FORMAT = "DD-MMMM-YYYY";
/** A time of day: 24 hours, no seconds. */
export const TIME_OF_DAY_FORMAT = "HH:mm";
export const DATE_TIME_FORMAT = `${SHORT_DATE_FORMAT} ${TIME_OF_DAY_FORMAT}`;

/**
 * The browser's language as a BCP 47 tag (en-GB, pt-BR, ja), which Intl reads the typed short
 * date and the time zone's name in; set with the dayjs locale by i18n.ts.
 */
let currentDateLocale = globalThis.navigator?.language || "en-US";

export function dateLocale(): string {
  return currentDateLocale;
}

export function setDateLocale(tag: string) {
  currentDateLocale = tag;
}

export function formatShortDate(value: dayjs.ConfigType) {
  return dayjs(value).format(SHORT_DATE_FORMAT);
}

/** The long date, in the active locale's month names (dayjs.locale, set with the language). */
export function formatLongDate(value: dayjs.ConfigType) {
  return dayjs(value).format(LONG_DATE_FORMAT);
}

export function formatTimeOfDay(value: dayjs.ConfigType) {
  return dayjs(value).format(TIME_OF_DAY_FORMAT);
}

export type DateTimeOptions = {
  /** Seconds too: 14:05:09. */
  seconds?: boolean;
  /**
   * Say the time zone's name after the time (CET, GMT+1, in the browser's language): the
   * device's, or this IANA zone's (Europe/Paris), whose wall-clock time is then shown.
   */
  timeZone?: boolean | string | undefined;
};

/** The wall-clock date and time of an instant in an IANA time zone, as a local-time Date. */
function wallClockIn(date: Date, timeZone: string): Date | null {
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      })
        .formatToParts(date)
        .map((part) => [part.type, Number(part.value)]),
    );
    return new Date(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  } catch {
    return null;
  }
}

function timeZoneName(date: Date, timeZone: string | undefined): string {
  try {
    const parts = new Intl.DateTimeFormat(currentDateLocale, {
      timeZoneName: "short",
      ...(timeZone ? { timeZone } : {}),
    }).formatToParts(date);
    return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
  } catch {
    return "";
  }
}

/** 22-Nov-2026 14:05 (with options, 22-Nov-2026 14:05:09 CET); the text given when not a date. */
export function formatDateTime(value: dayjs.ConfigType, options: DateTimeOptions = {}): string {
  const instant = dayjs(value);
  if (!instant.isValid()) return typeof value === "string" ? value : "";
  const date = instant.toDate();
  const zone =
    typeof options.timeZone === "string" && options.timeZone.includes("/") ? options.timeZone : undefined;
  const shown = (zone && wallClockIn(date, zone)) || date;
  const format = options.seconds ? `${DATE_TIME_FORMAT}:ss` : DATE_TIME_FORMAT;
  const text = dayjs(shown).format(format);
  if (!options.timeZone) return text;
  const name = timeZoneName(date, shown === date ? undefined : zone);
  return name ? `${text} ${name}` : text;
}

/**
 * The last-message date style (spec 01 section 9), as the inbox shows when an announcement was
 * sent: the time for today (HH:mm, the product's time), 'Yesterday', the weekday within the past week, the month and day
 * within this calendar year, otherwise the full date (DD-MMM-YYYY, the product's date). Days are
 * the device's calendar days. `now` and the locale are given so that it can be tested with fixed
 * clocks; the words come from the browser's Intl data for the locale, not from the catalogs.
 */
import dayjs from "dayjs";
import { formatShortDate, formatTimeOfDay } from "./format-date.ts";

export type LastMessageDateKind = "time" | "yesterday" | "weekday" | "monthDay" | "fullDate";

/** Days from the date's calendar day to today's (0 today, 1 yesterday; negative in the future). */
function calendarDaysAgo(date: Date, now: Date) {
  return Math.round(dayjs(now).startOf("day").diff(dayjs(date).startOf("day"), "day", true));
}

export function lastMessageDateKind(date: Date, now: Date): LastMessageDateKind {
  const days = calendarDaysAgo(date, now);
  if (days === 0) return "time";
  if (days === 1) return "yesterday";
  if (days >= 2 && days < 7) return "weekday";
  if (days > 0 && date.getFullYear() === now.getFullYear()) return "monthDay";
  return "fullDate";
}

const capitalise = (text: string, locale: string) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

export function formatLastMessageDate(date: Date, now: Date, locale: string): string {
  switch (lastMessageDateKind(date, now)) {
    case "time":
      return formatTimeOfDay(date);
    case "yesterday":
      return capitalise(new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-1, "day"), locale);
    case "weekday":
      return capitalise(new Intl.DateTimeFormat(locale, { weekday: "long" }).format(date), locale);
    case "monthDay":
      return new Intl.DateTimeFormat(locale, { month: "short", day: "numeric" }).format(date);
    case "fullDate":
      return formatShortDate(date);
  }
}

/** The date and time in full, for the element's title and screen readers' longer reading. */
export function formatFullDateTime(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short" }).format(date);
}

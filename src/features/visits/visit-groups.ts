/**
 * The virtual visits page's model (spec 01 "Virtual visits page" and "Visit grouping"): which
 * section each visit goes to, how its day and time range read, and what its button does. Plain
 * data in, plain data out; the clock and the time zone are arguments, so tests fix both.
 *
 * Decisions where the spec is silent:
 * - "Next" is the one visit that has not ended and starts soonest (ties: the lower id). It is
 *   shown there only, not again under its day. Ad hoc visits never end (the server lists them
 *   always), so an ad hoc visit created earlier is a candidate for Next like any other.
 * - Days and weeks are the calendar of the given time zone (the device's). A week runs Monday to
 *   Sunday (ISO 8601), so on a Sunday "Later this week" is empty.
 * - A visit that started on an earlier day and has not ended (it runs past midnight, or it is ad
 *   hoc) belongs to Today: it can be joined now.
 * - Visits that have ended are dropped (the server already leaves them out; the page may stay
 *   open past their end).
 */
import dayjs from "dayjs";
import { SHORT_DATE_FORMAT } from "../../i18n/format-date.ts";

/** The fields of a visit (spec 01 entity "Visit") that the grouping reads. */
export type GroupableVisit = {
  id: number;
  is_adhoc: boolean;
  visit_time: string;
  /** Minutes. */
  visit_duration: number;
  token: string | null;
};

export type VisitSectionKey = "next" | "today" | "laterThisWeek" | "future";
export const VISIT_SECTION_ORDER: readonly VisitSectionKey[] = ["next", "today", "laterThisWeek", "future"];

export type VisitSection<V> = { key: VisitSectionKey; visits: V[] };

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** When a visit ends: its start plus visit_duration minutes. */
export function visitEnd(visit: Pick<GroupableVisit, "visit_time" | "visit_duration">): Date {
  return new Date(Date.parse(visit.visit_time) + visit.visit_duration * MS_PER_MINUTE);
}

export function hasEnded(visit: GroupableVisit, now: Date): boolean {
  return !visit.is_adhoc && visitEnd(visit).getTime() <= now.getTime();
}

type CalendarDay = { year: number; month: number; day: number; hour: number; minute: number };

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time of an instant in a time zone. */
function wallClock(date: Date, timeZone: string): CalendarDay {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    partFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** A day count that orders calendar days (days since 1970-01-01 of that wall-clock date). */
function dayNumber({ year, month, day }: CalendarDay): number {
  return Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

/** 0 for Monday … 6 for Sunday. */
function isoWeekday(calendarDay: CalendarDay): number {
  const sundayFirst = new Date(
    Date.UTC(calendarDay.year, calendarDay.month - 1, calendarDay.day),
  ).getUTCDay();
  return (sundayFirst + 6) % 7;
}

function compareVisits(a: GroupableVisit, b: GroupableVisit) {
  return Date.parse(a.visit_time) - Date.parse(b.visit_time) || a.id - b.id;
}

/**
 * The four sections, in the spec's order, each sorted by start time. Sections without visits are
 * kept (empty), so the page decides how to show them.
 */
export function groupVisits<V extends GroupableVisit>(
  visits: readonly V[],
  now: Date,
  timeZone: string,
): VisitSection<V>[] {
  const open = visits.filter((visit) => !hasEnded(visit, now)).sort(compareVisits);
  const sections: Record<VisitSectionKey, V[]> = { next: [], today: [], laterThisWeek: [], future: [] };
  const [next, ...rest] = open;
  if (next) sections.next.push(next);
  const today = wallClock(now, timeZone);
  const todayNumber = dayNumber(today);
  const daysLeftInWeek = 6 - isoWeekday(today);
  for (const visit of rest) {
    const daysAhead = dayNumber(wallClock(new Date(visit.visit_time), timeZone)) - todayNumber;
    if (daysAhead <= 0) sections.today.push(visit);
    else if (daysAhead <= daysLeftInWeek) sections.laterThisWeek.push(visit);
    else sections.future.push(visit);
  }
  return VISIT_SECTION_ORDER.map((key) => ({ key, visits: sections[key] }));
}

const pad = (value: number) => String(value).padStart(2, "0");

export type VisitWhen = {
  /** Whether the row reads 'Today' instead of its date. */
  isToday: boolean;
  /** The start's date, DD-MMM-YYYY (shown unless today; always in the mail). */
  date: string;
  /** Start and end wall-clock times, HH:mm (24-hour). */
  start: string;
  end: string;
};

/** The row's day and time range: start to start plus visit_duration minutes. */
export function describeVisitTime(
  visit: Pick<GroupableVisit, "visit_time" | "visit_duration">,
  now: Date,
  timeZone: string,
): VisitWhen {
  const start = wallClock(new Date(visit.visit_time), timeZone);
  const end = wallClock(visitEnd(visit), timeZone);
  const isToday = dayNumber(start) === dayNumber(wallClock(now, timeZone));
  return {
    isToday,
    // Built from the wall-clock parts, so dayjs's locale names the month.
    date: dayjs(new Date(start.year, start.month - 1, start.day)).format(SHORT_DATE_FORMAT),
    start: `${pad(start.hour)}:${pad(start.minute)}`,
    end: `${pad(end.hour)}:${pad(end.minute)}`,
  };
}

export type VisitAction = "room" | "mail";

/** The button opens the room when the visit has a token or is ad hoc; otherwise it mails. */
export function visitAction(visit: Pick<GroupableVisit, "is_adhoc" | "token">): VisitAction {
  return visit.is_adhoc || (visit.token !== null && visit.token !== "") ? "room" : "mail";
}

/**
 * A mailto: link to the participant, with subject and body filled in (RFC 6068: every
 * character outside the unreserved set is percent-encoded; '@' stays readable in the address).
 */
export function visitMailto(email: string, { subject, body }: { subject: string; body: string }): string {
  const address = encodeURIComponent(email.trim()).replace(/%40/g, "@");
  return `mailto:${address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** The device's time zone (the grouping's calendar). */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

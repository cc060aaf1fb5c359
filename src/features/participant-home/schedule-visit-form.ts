/**
 * The schedule-visit dialog's form, read: the date and time the coordinator typed (the device's
 * time zone), the duration in minutes and whether it is recorded, checked as the server checks
 * them (core/contracts/visits.ts), so a mistake is said beside its field before anything is sent.
 */
import { VISIT_DURATION_MAX, type ScheduleVisitRequest } from "../../../core/contracts/visits.ts";

export type VisitFormValues = {
  /** YYYY-MM-DD, from the date field. */
  date: string;
  /** HH:mm, from the time field. */
  time: string;
  /** Minutes, as typed. */
  duration: string;
  recorded: boolean;
};

export type VisitFormProblem = "date_missing" | "time_missing" | "duration_invalid" | "already_ended";

export type VisitFormErrors = Partial<Record<"date" | "time" | "duration", VisitFormProblem>>;

export const DEFAULT_VISIT_MINUTES = 30;

const pad = (value: number) => String(value).padStart(2, "0");

/** The form's first values: today, at the next full hour, for the default duration. */
export function initialVisitForm(now: Date): VisitFormValues {
  const next = new Date(now);
  next.setMinutes(0, 0, 0);
  next.setHours(next.getHours() + 1);
  return {
    date: `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}`,
    time: `${pad(next.getHours())}:${pad(next.getMinutes())}`,
    duration: String(DEFAULT_VISIT_MINUTES),
    recorded: false,
  };
}

/** The local moment of a date and a time field, or null when either is not one. */
export function visitMoment(date: string, time: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const clock = /^(\d{2}):(\d{2})$/.exec(time);
  if (!day || !clock) return null;
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const moment = new Date(year, month - 1, dayOfMonth, Number(clock[1]), Number(clock[2]));
  if (moment.getFullYear() !== year || moment.getMonth() !== month - 1 || moment.getDate() !== dayOfMonth) {
    return null;
  }
  return Number.isNaN(moment.getTime()) ? null : moment;
}

export type ReadVisitForm =
  | { ok: true; body: Omit<ScheduleVisitRequest, "participant_id">; start: Date }
  | { ok: false; errors: VisitFormErrors };

export function readVisitForm(values: VisitFormValues, now: Date): ReadVisitForm {
  const errors: VisitFormErrors = {};
  const minutes = /^\d+$/.test(values.duration.trim()) ? Number(values.duration.trim()) : NaN;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > VISIT_DURATION_MAX) {
    errors.duration = "duration_invalid";
  }
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(values.date) && visitMoment(values.date, "00:00") !== null;
  if (!validDate) errors.date = "date_missing";
  if (!/^\d{2}:\d{2}$/.test(values.time)) errors.time = "time_missing";
  const start = visitMoment(values.date, values.time);
  if (start && !errors.duration && start.getTime() + minutes * 60_000 <= now.getTime()) {
    errors.time = "already_ended";
  }
  if (!start || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    start,
    body: {
      visit_time: start.toISOString(),
      visit_duration: minutes,
      is_recorded: values.recorded,
      is_adhoc: false,
    },
  };
}

/**
 * The participant home's summary block: the spec's derived fields (spec 01 section 3) from the
 * participant call, with `now` given so that the derivations can be tested with fixed clocks.
 */
import dayjs from "dayjs";
import { formatShortDate } from "../../i18n/format-date.ts";
import type { ParticipantResponse } from "../../../core/contracts/participant.ts";

export type ParticipantSummary = {
  name: string;
  id: number;
  subjectId: string;
  gender: ParticipantResponse["gender"];
  /** DD-MMM-YYYY, or null when unknown. */
  dateOfBirth: string | null;
  /** Whole years, or null when the date of birth is unknown. */
  age: number | null;
  /** DD-MMM-YYYY. */
  lastUpdated: string;
  /** Whole days since the first sign-in, or null before it. */
  daysSinceFirstLogin: number | null;
};

/** Completed years between a YYYY-MM-DD birth date and now (a birthday today counts). */
export function ageInYears(dateOfBirth: string | null, now: Date): number | null {
  if (!dateOfBirth) return null;
  const birth = dayjs(dateOfBirth);
  if (!birth.isValid() || birth.isAfter(now)) return null;
  return dayjs(now).diff(birth, "year");
}

/** Whole days from an ISO timestamp to now, counted on the local calendar; null without one. */
export function daysSince(timestamp: string | null, now: Date): number | null {
  if (!timestamp) return null;
  const then = dayjs(timestamp);
  if (!then.isValid()) return null;
  return Math.max(0, dayjs(now).startOf("day").diff(then.startOf("day"), "day"));
}

export function summarizeParticipant(participant: ParticipantResponse, now: Date): ParticipantSummary {
  return {
    name: `${participant.fname} ${participant.lname}`.trim(),
    id: participant.id,
    subjectId: participant.subject_id,
    gender: participant.gender,
    dateOfBirth: participant.date_of_birth ? formatShortDate(participant.date_of_birth) : null,
    age: ageInYears(participant.date_of_birth, now),
    lastUpdated: formatShortDate(participant.last_updated),
    daysSinceFirstLogin: daysSince(participant.first_login_timestamp, now),
  };
}

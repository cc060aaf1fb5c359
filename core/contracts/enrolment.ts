/**
 * Enrolment (issue: a site runs its own study): a participant added at a site, from a form that
 * may be filled offline. The device names the participant with a UUID (client_id) before the
 * server has given it an id: an enrolment sent twice finds the participant it already made, and
 * writes queued offline for that participant name it until its id is known.
 */
import * as z from "zod/mini";
import { participantGender, participantResponse } from "./participant.ts";

export const SUBJECT_ID_MAX_LENGTH = 64;
export const PERSON_NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;

const personName = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(
      z.trim(),
      z.minLength(1, `${field} must not be blank`),
      z.maxLength(PERSON_NAME_MAX_LENGTH, `${field} must be at most ${PERSON_NAME_MAX_LENGTH} characters`),
    );

/** The fields of a participant a coordinator enters (the add and edit forms, a CSV row). */
export const participantFields = z.object({
  /** Unique in the study. */
  subject_id: z
    .string({ error: "subject_id is required" })
    .check(
      z.trim(),
      z.minLength(1, "subject_id must not be blank"),
      z.maxLength(SUBJECT_ID_MAX_LENGTH, `subject_id must be at most ${SUBJECT_ID_MAX_LENGTH} characters`),
    ),
  fname: personName("fname"),
  lname: personName("lname"),
  /** YYYY-MM-DD, a real date not in the future. */
  date_of_birth: z
    .string({ error: "date_of_birth is required (YYYY-MM-DD)" })
    .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "date_of_birth must be a date written YYYY-MM-DD")),
  /** m, f, o, or null for none given. */
  gender: participantGender,
  email: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`),
          z.regex(/^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/, "email must be an email address"),
        ),
    ),
  ),
});
export type ParticipantFields = z.infer<typeof participantFields>;

/** POST /control/studies/{studyId}/sites/{siteId}/participants (idempotent, sent by the outbox). */
export const enrolParticipantRequest = z.extend(participantFields, {
  /** The UUID the enrolling device gave the participant. */
  client_id: z.string().check(z.uuid("client_id must be a UUID")),
});
export type EnrolParticipantRequest = z.infer<typeof enrolParticipantRequest>;

/** The participant as stored, with the device's id it was enrolled under. */
export const enrolParticipantResponse = z.extend(participantResponse, {
  client_id: z.nullable(z.string()),
  site_id: z.number().check(z.int()),
  email: z.nullable(z.string()),
});
export type EnrolParticipantResponse = z.infer<typeof enrolParticipantResponse>;

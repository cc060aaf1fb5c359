/**
 * Enrolment (issue: a site runs its own study): a participant added at a site, from a form that
 * may be filled offline. The device names the participant with a UUID (client_id) before the
 * server has given it an id: an enrolment sent twice finds the participant it already made, and
 * writes queued offline for that participant name it until its id is known.
 */
import * as z from "zod/mini";
import { errorBody } from "./errors.ts";
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

/** PATCH /control/studies/{studyId}/sites/{siteId}/participants/{participantId}: every field again. */
export const editParticipantRequest = participantFields;
export type EditParticipantRequest = z.infer<typeof editParticipantRequest>;

/** The most rows one CSV import holds (a site's list; a larger one is cut into files). */
export const PARTICIPANT_IMPORT_MAX_ROWS = 5000;
/** The most characters of CSV text one import sends (well under the 1 MiB request limit). */
export const PARTICIPANT_IMPORT_MAX_CHARS = 900_000;
/** The CSV's columns, in the header's names (docs/participant-import.md). */
export const PARTICIPANT_CSV_COLUMNS = [
  "subject_id",
  "first_name",
  "last_name",
  "date_of_birth",
  "gender",
  "email",
] as const;

/**
 * POST /control/studies/{studyId}/sites/{siteId}/participants/import: a site's CSV
 * (docs/participant-import.md) as JSON text. A dry run checks it and says what it would create;
 * otherwise it creates every row or, when any row is bad, none.
 */
export const participantImportRequest = z.object({
  csv: z
    .string({ error: "csv is required: the file's text" })
    .check(
      z.minLength(1, "csv must not be empty"),
      z.maxLength(
        PARTICIPANT_IMPORT_MAX_CHARS,
        `csv must be at most ${PARTICIPANT_IMPORT_MAX_CHARS} characters`,
      ),
    ),
  dry_run: z._default(z.boolean({ error: "dry_run must be true or false" }), false),
});
export type ParticipantImportRequest = z.input<typeof participantImportRequest>;

/** One row of the file as it was (or would be) created. */
export const participantImportRow = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().check(z.int(), z.positive()),
  subject_id: z.string(),
  fname: z.string(),
  lname: z.string(),
  /** The participant made, or null in a dry run. */
  id: z.nullable(z.number().check(z.int())),
});
export type ParticipantImportRow = z.infer<typeof participantImportRow>;

export const participantImportResponse = z.object({
  dry_run: z.boolean(),
  /** How many participants were (or, in a dry run, would be) created: every row of the file. */
  created: z.number().check(z.int(), z.nonnegative()),
  participants: z.array(participantImportRow),
});
export type ParticipantImportResponse = z.infer<typeof participantImportResponse>;

/** A bad row: its line, its subject id as written, and each problem by column. */
export const participantImportBadRow = z.object({
  line: z.number().check(z.int(), z.positive()),
  subject_id: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type ParticipantImportBadRow = z.infer<typeof participantImportBadRow>;

/**
 * The import's 400: the error body; when the file itself was read, `bad_rows` names every bad
 * row (and `issues` repeats each problem with the path csv[line].column). Nothing was created.
 */
export const participantImportRefusal = z.extend(errorBody, {
  bad_rows: z.optional(z.array(participantImportBadRow)),
});
export type ParticipantImportRefusal = z.infer<typeof participantImportRefusal>;

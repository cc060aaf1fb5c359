/**
 * The participant form's rules (add, edit, and correcting a refused enrolment): what the fields
 * hold, which problem each one has, and the fields the calls take. The same limits as the
 * contract (core/contracts/enrolment.ts), which the server checks again; problems are codes the
 * page turns into text.
 */
import {
  EMAIL_MAX_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  SUBJECT_ID_MAX_LENGTH,
  type ParticipantFields,
} from "../../../core/contracts/enrolment.ts";

export type GenderChoice = "m" | "f" | "o" | "none";

export type ParticipantFormValues = {
  subjectId: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD (a date input's value), or "" while empty. */
  dateOfBirth: string;
  gender: GenderChoice;
  email: string;
};

export type ParticipantFormField = keyof ParticipantFormValues;
export type FieldProblem = "required" | "too-long" | "date" | "future" | "email";
export type FormProblems = Partial<Record<ParticipantFormField, FieldProblem>>;

export const EMPTY_PARTICIPANT_FORM: ParticipantFormValues = {
  subjectId: "",
  firstName: "",
  lastName: "",
  dateOfBirth: "",
  gender: "none",
  email: "",
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The earliest date of birth the server takes. */
export const EARLIEST_DATE_OF_BIRTH = "1900-01-01";
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether YYYY-MM-DD is a real calendar date. */
function isCalendarDate(text: string) {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today as YYYY-MM-DD in the device's time zone (a birth date is a local date). */
export function localToday(now: Date) {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function required(text: string, max: number): FieldProblem | undefined {
  const trimmed = text.trim();
  if (!trimmed) return "required";
  return trimmed.length > max ? "too-long" : undefined;
}

/** Every problem of the form, by field; empty when it can be sent. */
export function participantFormProblems(values: ParticipantFormValues, now: Date): FormProblems {
  const problems: FormProblems = {};
  const subjectId = required(values.subjectId, SUBJECT_ID_MAX_LENGTH);
  if (subjectId) problems.subjectId = subjectId;
  const firstName = required(values.firstName, PERSON_NAME_MAX_LENGTH);
  if (firstName) problems.firstName = firstName;
  const lastName = required(values.lastName, PERSON_NAME_MAX_LENGTH);
  if (lastName) problems.lastName = lastName;
  if (!values.dateOfBirth) problems.dateOfBirth = "required";
  else if (!isCalendarDate(values.dateOfBirth) || values.dateOfBirth < EARLIEST_DATE_OF_BIRTH) {
    problems.dateOfBirth = "date";
  } else if (values.dateOfBirth > localToday(now)) problems.dateOfBirth = "future";
  const email = values.email.trim();
  if (email.length > EMAIL_MAX_LENGTH) problems.email = "too-long";
  else if (email && !EMAIL.test(email)) problems.email = "email";
  return problems;
}

/** The fields the calls take (trimmed; no gender given is null, no email is null). */
export function participantFieldsOf(values: ParticipantFormValues): ParticipantFields {
  const email = values.email.trim();
  return {
    subject_id: values.subjectId.trim(),
    fname: values.firstName.trim(),
    lname: values.lastName.trim(),
    date_of_birth: values.dateOfBirth,
    gender: values.gender === "none" ? null : values.gender,
    email: email || null,
  };
}

/** The form filled with a participant's fields (editing, or correcting a refused enrolment). */
export function participantFormValuesOf(fields: {
  subject_id: string;
  fname: string;
  lname: string;
  date_of_birth: string | null;
  gender: "m" | "f" | "o" | null;
  email?: string | null | undefined;
}): ParticipantFormValues {
  return {
    subjectId: fields.subject_id,
    firstName: fields.fname,
    lastName: fields.lname,
    dateOfBirth: fields.date_of_birth ?? "",
    gender: fields.gender ?? "none",
    email: fields.email ?? "",
  };
}

/** The form field a server refusal names (its `issues[].path`, or the message's field name). */
export function fieldOfRefusal(body: unknown): ParticipantFormField | undefined {
  const byWireName: Record<string, ParticipantFormField> = {
    subject_id: "subjectId",
    fname: "firstName",
    lname: "lastName",
    date_of_birth: "dateOfBirth",
    gender: "gender",
    email: "email",
  };
  const issues = (body as { issues?: { path?: unknown }[] } | null)?.issues;
  const path = Array.isArray(issues) ? issues[0]?.path : undefined;
  const name = Array.isArray(path) ? path.join(".") : typeof path === "string" ? path : undefined;
  if (name && name in byWireName) return byWireName[name];
  const code = (body as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("subject_id") ? "subjectId" : undefined;
}

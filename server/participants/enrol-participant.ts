/**
 * Enrolment: who may add and change participants at a site, and the writes themselves (one
 * participant from the form or the outbox, many from a CSV, an edit), each with what the study
 * gives a new participant (scheduled-deliveries.ts). The callers run them in one audited
 * transaction (withAuditActor, or runIdempotentWrite which opens one).
 *
 * Who: a user whose user-management role allows participants (enroller, studyManager,
 * administrator) or who is a Clinical Coordinator (16) in the study, with the site in their
 * permissions. The site must belong to the study, and a retired site takes no new participants.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { ParticipantFields, EnrolParticipantResponse } from "../../core/contracts/enrolment.ts";
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import type { Database, Transaction } from "../db/client.ts";
import { participants, sites, studies, studyPermissions } from "../db/schema.ts";
import { HttpError, invalidRequest } from "../http/errors.ts";
import { giveStudySchedule } from "./scheduled-deliveries.ts";
import { participantRecord } from "./participant-record.ts";
import { canReadSite, participantForbidden, siteForbidden } from "./site-access.ts";

type Executor = Database | Transaction;

/** The earliest date of birth taken: older ones are typing mistakes. */
export const EARLIEST_DATE_OF_BIRTH = "1900-01-01";
/** The latest time zone's offset: a date is "in the future" only once no place on Earth has reached it. */
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;

/** The unique index of (study_id, subject_id), migration 0015. */
const SUBJECT_ID_INDEX = "participants_study_subject_id_key";
const CLIENT_ID_INDEX = "participants_client_id_unique";

export function enrolForbidden() {
  return new HttpError(
    403,
    "Only enrollers, study managers, administrators and clinical coordinators of this study can add or change its participants.",
    "enrol_forbidden",
  );
}

/**
 * Refuses (403) a user who may not add or change participants at this site of this study: the
 * same answer whether the study or site exists or not. Answers the site when allowed.
 */
export async function requireEnrolAccess(
  db: Executor,
  user: { id: number; role: string },
  studyId: number,
  siteId: number,
) {
  const [permission] = await db
    .select({ role: studyPermissions.role })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, user.id), eq(studyPermissions.studyId, studyId)));
  if (!permission || !(await canReadSite(db as Database, user.id, studyId, siteId))) throw siteForbidden();
  if (!managementRoleAllows(user.role, "participants") && permission.role !== ROLE_CODE.clinicalCoordinator) {
    throw enrolForbidden();
  }
  const [site] = await db
    .select({ id: sites.id, label: sites.label, retiredAt: sites.retiredAt })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.studyId, studyId)));
  if (!site) throw siteForbidden();
  return site;
}

/** Refuses (409) a retired site for new participants. */
export function requireOpenSite(site: { label: string; retiredAt: Date | null }) {
  if (site.retiredAt !== null) {
    throw new HttpError(
      409,
      `The site "${site.label}" is retired: it takes no new participants.`,
      "site_retired",
    );
  }
}

/** Why a YYYY-MM-DD date of birth is not acceptable, or null when it is. */
export function dateOfBirthProblem(value: string, now: Date): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return "date_of_birth must be a date written YYYY-MM-DD";
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return `date_of_birth ${value} is not a date of the calendar`;
  }
  if (value < EARLIEST_DATE_OF_BIRTH) return `date_of_birth must not be before ${EARLIEST_DATE_OF_BIRTH}`;
  const latest = new Date(now.getTime() + LATEST_OFFSET_MS).toISOString().slice(0, 10);
  if (value > latest) return "date_of_birth must not be in the future";
  return null;
}

/** The checks the schema cannot make (a real date, not in the future): a 400 naming the field. */
export function requireValidFields(fields: ParticipantFields, now: Date) {
  const problem = dateOfBirthProblem(fields.date_of_birth, now);
  if (problem) throw invalidRequest([{ path: "date_of_birth", message: problem }]);
}

export function subjectIdTaken(subjectId: string) {
  return new HttpError(
    409,
    `subject_id ${subjectId} is already a participant of this study: give another subject id.`,
    "subject_id_taken",
    [{ path: "subject_id", message: `${subjectId} is already used in this study` }],
  );
}

/** The database's unique-violation error for one index (PostgreSQL and PGlite, through Drizzle). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error; current instanceof Error || typeof current === "object";) {
    if (current === null) return false;
    const candidate = current as {
      code?: unknown;
      constraint?: unknown;
      constraint_name?: unknown;
      cause?: unknown;
    };
    if (
      candidate.code === "23505" &&
      (candidate.constraint === constraint || candidate.constraint_name === constraint)
    ) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}

export function isSubjectIdViolation(error: unknown) {
  return isUniqueViolation(error, SUBJECT_ID_INDEX);
}

export function isClientIdViolation(error: unknown) {
  return isUniqueViolation(error, CLIENT_ID_INDEX);
}

/** The subject ids of `wanted` that already name a participant of the study (other than `except`). */
export async function takenSubjectIds(db: Executor, studyId: number, wanted: string[], except?: number) {
  if (wanted.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: participants.id, subjectId: participants.subjectId })
    .from(participants)
    .where(and(eq(participants.studyId, studyId), inArray(participants.subjectId, wanted)));
  return new Set(rows.filter((row) => row.id !== except).map((row) => row.subjectId));
}

function columnsOf(fields: ParticipantFields) {
  return {
    subjectId: fields.subject_id,
    fname: fields.fname,
    lname: fields.lname,
    dateOfBirth: fields.date_of_birth,
    gender: fields.gender,
    email: fields.email ? fields.email : null,
  };
}

/**
 * Adds participants at a site with what the study gives them, in the caller's transaction.
 * Answers their ids in the order given. The caller has checked access and the fields; a subject
 * id taken meanwhile fails on the unique index (isSubjectIdViolation).
 */
export async function insertParticipants(
  tx: Transaction,
  studyId: number,
  siteId: number,
  people: { fields: ParticipantFields; clientId: string | null }[],
  now: Date,
): Promise<number[]> {
  if (people.length === 0) return [];
  const ids: number[] = [];
  for (let start = 0; start < people.length; start += 1000) {
    const inserted = await tx
      .insert(participants)
      .values(
        people.slice(start, start + 1000).map((person) => ({
          studyId,
          siteId,
          ...columnsOf(person.fields),
          clientId: person.clientId,
          lastUpdated: now,
        })),
      )
      .returning({ id: participants.id });
    ids.push(...inserted.map((row) => row.id));
  }
  await giveStudySchedule(tx, studyId, ids, now);
  return ids;
}

/** Changes a participant's fields (not its client id), in the caller's transaction. */
export async function updateParticipant(
  tx: Transaction,
  participantId: number,
  fields: ParticipantFields,
  now: Date,
) {
  await tx
    .update(participants)
    .set({ ...columnsOf(fields), lastUpdated: now })
    .where(eq(participants.id, participantId));
}

/** The participant of a study and site (whether the user may see it is the caller's check). */
export async function participantAtSite(
  db: Executor,
  studyId: number,
  siteId: number,
  participantId: number,
) {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(
      and(
        eq(participants.id, participantId),
        eq(participants.studyId, studyId),
        eq(participants.siteId, siteId),
      ),
    );
  if (!row) throw participantForbidden();
  return row;
}

/** The participant a client id names, if any. */
export async function participantByClientId(db: Executor, clientId: string) {
  const [row] = await db
    .select({ id: participants.id, studyId: participants.studyId, siteId: participants.siteId })
    .from(participants)
    .where(eq(participants.clientId, clientId));
  return row;
}

/** A participant as the enrolment and edit calls answer it. */
export async function enrolmentRecord(
  db: Executor,
  participantId: number,
): Promise<EnrolParticipantResponse> {
  const [row] = await db
    .select({ participant: participants, studyName: studies.name })
    .from(participants)
    .innerJoin(studies, eq(studies.id, participants.studyId))
    .where(eq(participants.id, participantId));
  if (!row) throw new Error(`Participant ${participantId} does not exist`);
  return {
    ...(await participantRecord(db, row.participant, row.studyName)),
    client_id: row.participant.clientId,
    site_id: row.participant.siteId,
  };
}

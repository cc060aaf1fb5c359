/**
 * The visits table's queries: the visits page's list, the room a clinician opens, the room a
 * join link opens, and scheduling a visit (the POST call, the clinro command, the demo). Every
 * clinician-facing lookup checks the user's study and site permissions and refuses a witness.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Visit } from "../../core/contracts/visits.ts";
import { isWitness, ROLE_CODE } from "../../core/contracts/roles.ts";
import type { Database, Transaction } from "../db/client.ts";
import { participants, sitePermissions, sites, studies, studyPermissions, visits } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { canReadSite } from "../participants/site-access.ts";
import { hashJoinSecret, hasEnded, newJoinSecret } from "./join-links.ts";

export type VisitRow = typeof visits.$inferSelect;

/** Visits page answers of one site at most this many visits, the soonest first. */
export const VISITS_LIST_LIMIT = 500;
export const COORDINATOR_ROLE = ROLE_CODE.clinicalCoordinator;

export function visitsForbidden() {
  return new HttpError(
    403,
    "You do not have access to the virtual visits of this study and site.",
    "visits_forbidden",
  );
}

async function studyRole(db: Database, userId: number, studyId: number) {
  const [row] = await db
    .select({ role: studyPermissions.role })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, userId), eq(studyPermissions.studyId, studyId)));
  return row?.role;
}

/** The study and site must both be the user's, and a witness has no visits. Answers the role. */
export async function requireVisitsAccess(db: Database, userId: number, studyId: number, siteId: number) {
  const role = await studyRole(db, userId, studyId);
  if (role === undefined || isWitness(role) || !(await canReadSite(db, userId, studyId, siteId))) {
    throw visitsForbidden();
  }
  return role;
}

const listColumns = {
  id: visits.id,
  isAdhoc: visits.isAdhoc,
  isRecorded: visits.isRecorded,
  fname: participants.fname,
  lname: participants.lname,
  participantId: visits.participantId,
  participantEmail: participants.email,
  roomName: visits.roomName,
  visitTime: visits.visitTime,
  visitDuration: visits.visitDuration,
  token: visits.token,
};

type ListRow = {
  id: number;
  isAdhoc: boolean;
  isRecorded: boolean;
  fname: string;
  lname: string;
  participantId: number;
  participantEmail: string | null;
  roomName: string;
  visitTime: Date;
  visitDuration: number;
  token: string | null;
};

function toVisit(row: ListRow): Visit {
  return {
    id: row.id,
    is_adhoc: row.isAdhoc,
    is_recorded: row.isRecorded,
    fname: row.fname,
    lname: row.lname,
    participant_id: row.participantId,
    participant_email: row.participantEmail ?? "",
    room_name: row.roomName,
    visit_time: row.visitTime.toISOString(),
    visit_duration: row.visitDuration,
    token: row.token,
  };
}

/** The visits of one study site that have not ended (ad hoc ones always), by start time. */
export async function listOpenVisits(
  db: Database,
  studyId: number,
  siteId: number,
  now: Date,
): Promise<Visit[]> {
  const rows = await db
    .select(listColumns)
    .from(visits)
    .innerJoin(participants, eq(participants.id, visits.participantId))
    .where(
      and(
        eq(visits.studyId, studyId),
        eq(visits.siteId, siteId),
        or(
          eq(visits.isAdhoc, true),
          // postgres-js sends a bare Date in raw SQL untyped: the ISO text is cast instead.
          sql`${visits.visitTime} + make_interval(mins => ${visits.visitDuration}) > ${now.toISOString()}::timestamptz`,
        ),
      ),
    )
    .orderBy(asc(visits.visitTime), asc(visits.id))
    .limit(VISITS_LIST_LIMIT);
  return rows.map(toVisit);
}

export async function visitById(db: Database | Transaction, id: number): Promise<Visit> {
  const [row] = await db
    .select(listColumns)
    .from(visits)
    .innerJoin(participants, eq(participants.id, visits.participantId))
    .where(eq(visits.id, id));
  if (!row) throw new Error(`Visit ${id} vanished`);
  return toVisit(row);
}

/**
 * The room a clinician opens: 403 without a non-witness role in the study or without the visit's
 * site; 404 for a room the study does not have; 410 after the visit ended; 409 for a visit
 * without a video room.
 */
export async function roomForClinician(
  db: Database,
  userId: number,
  studyId: number,
  roomName: string,
  now: Date,
) {
  const role = await studyRole(db, userId, studyId);
  if (role === undefined || isWitness(role)) throw visitsForbidden();
  const [visit] = await db
    .select()
    .from(visits)
    .where(and(eq(visits.studyId, studyId), eq(visits.roomName, roomName)));
  if (!visit) throw new HttpError(404, `Study ${studyId} has no visit room ${roomName}.`, "room_not_found");
  const [siteAllowed] = await db
    .select({ siteId: sitePermissions.siteId })
    .from(sitePermissions)
    .where(and(eq(sitePermissions.userId, userId), eq(sitePermissions.siteId, visit.siteId)));
  if (!siteAllowed) throw visitsForbidden();
  if (hasEnded(visit, now)) throw new HttpError(410, "This visit has ended.", "visit_ended");
  if (visit.token === null) {
    throw new HttpError(
      409,
      "This visit has no video room: contact the participant by mail.",
      "visit_without_room",
    );
  }
  return visit;
}

/** The visit of a join link's secret, with its study's name; undefined for an unknown secret. */
export async function visitOfJoinSecret(db: Database, secret: string) {
  const [row] = await db
    .select({ visit: visits, studyName: studies.name })
    .from(visits)
    .innerJoin(studies, eq(studies.id, visits.studyId))
    .where(eq(visits.joinSecretHash, hashJoinSecret(secret)));
  return row;
}

export class ScheduleError extends HttpError {}

export type ScheduleRequest = {
  studyId: number;
  siteId: number;
  participantId: number;
  visitTime: Date;
  visitDuration: number;
  isRecorded: boolean;
  isAdhoc: boolean;
  /** The scheduling user; undefined for the clinro command. */
  createdBy?: number;
  /** false: a visit without a video room (its row offers a mail); the demo has one. */
  withRoom?: boolean;
};

export type Invitation = {
  to: string | null;
  fname: string;
  studyName: string;
  secret: string;
};

/** A new room name: letters, digits, '-' and '_' (valid as an Agora channel too). */
export function newRoomName() {
  return `visit-${randomBytes(12).toString("base64url")}`;
}

/**
 * Stores a visit for a participant of the study site, with a fresh room, visit token and join
 * secret, and answers the visit and what its invitation mail needs (the secret exists nowhere
 * else). Checks the study has virtual visits, the participant is of that study and site, and the
 * visit has not already ended. Runs in the caller's transaction.
 */
export async function scheduleVisit(tx: Database | Transaction, request: ScheduleRequest, now: Date) {
  const [study] = await tx
    .select({ name: studies.name, config: studies.config })
    .from(studies)
    .innerJoin(sites, and(eq(sites.studyId, studies.id), eq(sites.id, request.siteId)))
    .where(eq(studies.id, request.studyId));
  if (!study) {
    throw new ScheduleError(404, `Study ${request.studyId} has no site ${request.siteId}.`, "site_not_found");
  }
  if (study.config.virtual_visits !== true) {
    throw new ScheduleError(
      409,
      `Study ${request.studyId} does not have virtual visits.`,
      "virtual_visits_disabled",
    );
  }
  const [participant] = await tx
    .select({ fname: participants.fname, email: participants.email })
    .from(participants)
    .where(
      and(
        eq(participants.id, request.participantId),
        eq(participants.studyId, request.studyId),
        eq(participants.siteId, request.siteId),
      ),
    );
  if (!participant) {
    throw new ScheduleError(
      404,
      `Participant ${request.participantId} is not a participant of study ${request.studyId} at site ${request.siteId}.`,
      "participant_not_found",
      [{ path: "participant_id", message: "not a participant of this study and site" }],
    );
  }
  if (hasEnded(request, now)) {
    throw new ScheduleError(
      400,
      "Invalid request. visit_time: this visit would already have ended",
      "invalid_request",
      [{ path: "visit_time", message: "this visit would already have ended" }],
    );
  }
  const withRoom = request.withRoom ?? true;
  const secret = newJoinSecret();
  const [created] = await tx
    .insert(visits)
    .values({
      studyId: request.studyId,
      siteId: request.siteId,
      participantId: request.participantId,
      roomName: newRoomName(),
      visitTime: request.visitTime,
      visitDuration: request.visitDuration,
      isRecorded: request.isRecorded,
      isAdhoc: request.isAdhoc,
      token: withRoom ? randomBytes(16).toString("base64url") : null,
      joinSecretHash: withRoom ? hashJoinSecret(secret) : null,
      createdBy: request.createdBy,
      createdAt: now,
    })
    .returning({ id: visits.id });
  const visit = await visitById(tx, created!.id);
  const invitation: Invitation | undefined = withRoom
    ? { to: participant.email, fname: participant.fname, studyName: study.name, secret }
    : undefined;
  return { visit, invitation };
}

/**
 * A new join secret for a visit with a room (the old link stops working): used when the demo is
 * seeded, so that its visits can be joined from the mail written at start.
 */
export async function renewJoinSecret(db: Database, visitId: number) {
  const secret = newJoinSecret();
  const [row] = await db
    .update(visits)
    .set({ joinSecretHash: hashJoinSecret(secret) })
    .where(and(eq(visits.id, visitId), sql`${visits.token} is not null`))
    .returning({ id: visits.id });
  return row ? secret : undefined;
}

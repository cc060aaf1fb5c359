/**
 * Announcements as stored (schema: announcements, announcement_reads) and who may see and write
 * them:
 * - a user sees the announcements of the studies they hold a permission in: those to the whole
 *   study, and those to one site when that site is in their site permissions;
 * - a user may write to a study when they are its clinical coordinator (role 16), or an
 *   administrator holding a permission in it; to one site of it when that site is also theirs.
 */
import { and, desc, eq, inArray, isNull, or, sql, type Placeholder } from "drizzle-orm";
import type { Announcement } from "../../core/contracts/announcements.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import { USER_ADMIN_ROLES } from "../../core/contracts/users.ts";
import type { Database, Transaction } from "../db/client.ts";
import { preparedPerDatabase } from "../db/prepared-per-database.ts";
import {
  announcementReads,
  announcements,
  sitePermissions,
  sites,
  studies,
  studyPermissions,
  users,
} from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

type Executor = Database | Transaction;

/** The condition "this announcement is addressed to the user" (study permission, and site when set). */
function addressedTo(userId: number | Placeholder) {
  return and(
    sql`exists (select 1 from ${studyPermissions} where ${studyPermissions.userId} = ${userId} and ${studyPermissions.studyId} = ${announcements.studyId})`,
    or(
      isNull(announcements.siteId),
      sql`exists (select 1 from ${sitePermissions} where ${sitePermissions.userId} = ${userId} and ${sitePermissions.siteId} = ${announcements.siteId})`,
    ),
  );
}

/**
 * The user's announcements (or the one of onlyId), newest id first, with their read state. The
 * inbox is asked at every sign-in: a prepared statement per database, one for the list and one
 * for a single announcement.
 */
const preparedInboxes = preparedPerDatabase((db: Executor, shape: string) => {
  const userId = sql.placeholder("userId");
  return db
    .select({
      id: announcements.id,
      sentAt: announcements.sentAt,
      title: announcements.title,
      content: announcements.content,
      studyId: announcements.studyId,
      studyName: studies.name,
      siteId: announcements.siteId,
      siteLabel: sites.label,
      sender: users.name,
      readAt: announcementReads.readAt,
    })
    .from(announcements)
    .innerJoin(studies, eq(studies.id, announcements.studyId))
    .leftJoin(sites, eq(sites.id, announcements.siteId))
    .leftJoin(users, eq(users.id, announcements.authorUserId))
    .leftJoin(
      announcementReads,
      and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, userId)),
    )
    .where(
      and(addressedTo(userId), shape === "one" ? eq(announcements.id, sql.placeholder("onlyId")) : undefined),
    )
    .orderBy(desc(announcements.id))
    .prepare(`announcement_inbox_${shape}`);
});

export async function listAnnouncementsFor(
  db: Executor,
  userId: number,
  onlyId?: number,
): Promise<Announcement[]> {
  const rows = await preparedInboxes(db, onlyId === undefined ? "all" : "one").execute({ userId, onlyId });
  return rows.map((row) => ({
    id: row.id,
    sent: row.sentAt.toISOString(),
    read: row.readAt !== null,
    title: row.title,
    content: row.content,
    sender: row.sender ?? "",
    study_id: row.studyId,
    study_name: row.studyName,
    site_id: row.siteId,
    site_label: row.siteLabel,
  }));
}

/** Of these ids, those addressed to the user (the others do not exist for them). */
export async function addressedAnnouncementIds(db: Executor, userId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .select({ id: announcements.id })
    .from(announcements)
    .where(and(inArray(announcements.id, [...ids]), addressedTo(userId)));
  return new Set(rows.map((row) => row.id));
}

/** Records that the user read them (the first read stays: its time is when they first did). */
export async function markAnnouncementsRead(tx: Executor, userId: number, ids: readonly number[], at: Date) {
  if (ids.length === 0) return;
  await tx
    .insert(announcementReads)
    .values([...new Set(ids)].map((announcementId) => ({ announcementId, userId, readAt: at })))
    .onConflictDoNothing();
}

export function announcementForbidden() {
  return new HttpError(
    403,
    "Only a clinical coordinator of this study, or an administrator with access to it, can send announcements to it and its sites.",
    "announcement_forbidden",
  );
}

/**
 * Refuses (403) unless the user may write to the study (and the site, which must be one of the
 * study's and in their permissions). The same answer whether the study or site exists or not.
 */
export async function requireAnnouncementAuthor(
  db: Executor,
  user: { id: number; role: string },
  studyId: number,
  siteId: number | null,
) {
  const [permission] = await db
    .select({ role: studyPermissions.role })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, user.id), eq(studyPermissions.studyId, studyId)));
  if (!permission) throw announcementForbidden();
  if (
    permission.role !== ROLE_CODE.clinicalCoordinator &&
    !(USER_ADMIN_ROLES as readonly string[]).includes(user.role)
  ) {
    throw announcementForbidden();
  }
  if (siteId === null) return;
  const [site] = await db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(
      sitePermissions,
      and(eq(sitePermissions.siteId, sites.id), eq(sitePermissions.userId, user.id)),
    )
    .where(and(eq(sites.id, siteId), eq(sites.studyId, studyId)));
  if (!site) throw announcementForbidden();
}

export type NewAnnouncement = {
  studyId: number;
  siteId: number | null;
  title: string;
  /** Already sanitised. */
  content: string;
  authorUserId: number | null;
  sentAt?: Date;
};

/** Stores an announcement; its author has read it. */
export async function insertAnnouncement(tx: Executor, values: NewAnnouncement) {
  const [created] = await tx
    .insert(announcements)
    .values({ ...values, sentAt: values.sentAt ?? new Date() })
    .returning({ id: announcements.id, sentAt: announcements.sentAt });
  const row = created!;
  if (values.authorUserId !== null)
    await markAnnouncementsRead(tx, values.authorUserId, [row.id], row.sentAt);
  return row.id;
}

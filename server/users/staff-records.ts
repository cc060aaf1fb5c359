/**
 * The stored side of staff management: a user's studies, sites and roles as the staff pages see
 * them, the checks of the study access an administrator gives (every study and site exists, each
 * site is of its study and in use), the invitation itself, and deactivation.
 *
 * Owns no state; every write runs inside the caller's audited transaction (withAuditActor), so
 * the audit trail names the administrator who acted.
 */
import { and, asc, eq, gt, inArray, isNull, max, sql } from "drizzle-orm";
import type { ErrorBody } from "../../core/contracts/errors.ts";
import type { AssignableRole } from "../../core/contracts/user-edit.ts";
import type { MeResponse } from "../../core/contracts/user.ts";
import type { StaffMember, StaffStatus, StaffStudyAccess } from "../../core/contracts/staff.ts";
import { scopeMayExport, STUDY_RIGHT, studyScopeOf } from "../../core/contracts/study-rights.ts";
import { hasUsablePassword, UNUSABLE_PASSWORD_HASH } from "../auth/passwords.ts";
import type { Database, Transaction } from "../db/client.ts";
import { accountTokens, sitePermissions, sites, studies, studyPermissions, users } from "../db/schema.ts";

type Executor = Database | Transaction;
type Issue = NonNullable<ErrorBody["issues"]>[number];

/** The user scope that lets an administrator edit other users' nicknames (spec 01 section 4). */
const ADMINISTRATOR_USER_SCOPE = ["wu"];

/** The user scope a management role carries. */
export function userScopeFor(role: AssignableRole) {
  return role === "administrator" ? ADMINISTRATOR_USER_SCOPE : [];
}

/** Where an account stands, from its row and its newest activation link's expiry. */
export function staffStatusOf(
  user: { passwordHash: string; deactivatedAt: Date | null },
  openInvitationExpiresAt: Date | null,
): StaffStatus {
  if (user.deactivatedAt) return "deactivated";
  if (hasUsablePassword(user.passwordHash)) return "active";
  return openInvitationExpiresAt ? "invited" : "invitation_expired";
}

/** The expiry of the user's working activation link, if any (one per user: a new one retires the old). */
async function openInvitations(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, Date>();
  const rows = await db
    .select({ userId: accountTokens.userId, expiresAt: max(accountTokens.expiresAt) })
    .from(accountTokens)
    .where(
      and(
        inArray(accountTokens.userId, userIds),
        eq(accountTokens.purpose, "activation"),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .groupBy(accountTokens.userId);
  return new Map(rows.flatMap((row) => (row.expiresAt ? [[row.userId, row.expiresAt] as const] : [])));
}

/** Each user's status and invitation expiry, for the user list. */
export async function staffStatuses(
  db: Executor,
  rows: { id: number; passwordHash: string; deactivatedAt: Date | null }[],
) {
  const open = await openInvitations(
    db,
    rows.filter((row) => !row.deactivatedAt && !hasUsablePassword(row.passwordHash)).map((row) => row.id),
  );
  return new Map(
    rows.map((row) => {
      const status = staffStatusOf(row, open.get(row.id) ?? null);
      const expires = status === "invited" ? (open.get(row.id) ?? null) : null;
      return [row.id, { status, invitation_expires_at: expires?.toISOString() ?? null }] as const;
    }),
  );
}

/** The user as the staff pages show them, or undefined when there is no such user. */
export async function loadStaffMember(db: Executor, userId: number): Promise<StaffMember | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const held = await db
    .select({
      studyId: studies.id,
      studyName: studies.name,
      role: studyPermissions.role,
      scope: studyPermissions.scope,
    })
    .from(studyPermissions)
    .innerJoin(studies, eq(studies.id, studyPermissions.studyId))
    .where(eq(studyPermissions.userId, userId))
    .orderBy(asc(studies.id));
  const heldSites = await db
    .select({ studyId: sites.studyId, siteId: sites.id, label: sites.label })
    .from(sitePermissions)
    .innerJoin(sites, eq(sites.id, sitePermissions.siteId))
    .where(eq(sitePermissions.userId, userId))
    .orderBy(asc(sites.id));
  const open = (await openInvitations(db, [userId])).get(userId) ?? null;
  const status = staffStatusOf(user, open);
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    nickname: user.nickname,
    role: user.role as MeResponse["role"],
    status,
    invitation_expires_at: status === "invited" && open ? open.toISOString() : null,
    deactivated_at: user.deactivatedAt?.toISOString() ?? null,
    last_login: user.lastLogin?.toISOString() ?? null,
    studies: held.map((study) => ({
      study_id: study.studyId,
      study_name: study.studyName,
      role: study.role,
      sites: heldSites
        .filter((site) => site.studyId === study.studyId)
        .map((site) => ({ site_id: site.siteId, site_label: site.label })),
      may_export: scopeMayExport(study.scope),
    })),
  };
}

/** Every study with its sites in use, for the forms that give access. */
export async function loadAssignableStudies(db: Executor) {
  const studyRows = await db
    .select({ id: studies.id, name: studies.name })
    .from(studies)
    .orderBy(asc(studies.id));
  const siteRows = await db
    .select({
      id: sites.id,
      studyId: sites.studyId,
      label: sites.label,
      treeLevel: sites.treeLevel,
      isVirtual: sites.isVirtual,
    })
    .from(sites)
    .where(isNull(sites.retiredAt))
    .orderBy(asc(sites.id));
  return studyRows.map((study) => ({
    study_id: study.id,
    study_name: study.name,
    sites: siteRows
      .filter((site) => site.studyId === study.id)
      .map((site) => ({
        site_id: site.id,
        site_label: site.label,
        tree_level: site.treeLevel,
        is_virtual: site.isVirtual,
      })),
  }));
}

/** What the checks of study access read: every study id and its sites in use. */
export type StudyCatalogue = Map<number, Set<number>>;

export async function loadStudyCatalogue(db: Executor): Promise<StudyCatalogue> {
  const catalogue: StudyCatalogue = new Map();
  for (const study of await db.select({ id: studies.id }).from(studies)) catalogue.set(study.id, new Set());
  const inUse = await db
    .select({ id: sites.id, studyId: sites.studyId })
    .from(sites)
    .where(isNull(sites.retiredAt));
  for (const site of inUse) catalogue.get(site.studyId)?.add(site.id);
  return catalogue;
}

/**
 * The problems of the study access given, each with its path under `at` (studies[0].site_ids[1]):
 * a study named twice or unknown, a site named twice, unknown, retired or of another study.
 */
export function studyAccessIssues(
  catalogue: StudyCatalogue,
  access: readonly StaffStudyAccess[],
  at = "studies",
): Issue[] {
  const issues: Issue[] = [];
  const seenStudies = new Set<number>();
  access.forEach((study, index) => {
    const path = `${at}.${index}`;
    const studySites = catalogue.get(study.study_id);
    if (!studySites) {
      issues.push({ path: `${path}.study_id`, message: `there is no study ${study.study_id}` });
      return;
    }
    if (seenStudies.has(study.study_id)) {
      issues.push({ path: `${path}.study_id`, message: `study ${study.study_id} is named twice` });
    }
    seenStudies.add(study.study_id);
    const seenSites = new Set<number>();
    study.site_ids.forEach((siteId, siteIndex) => {
      const sitePath = `${path}.site_ids.${siteIndex}`;
      if (seenSites.has(siteId)) issues.push({ path: sitePath, message: `site ${siteId} is named twice` });
      else if (!studySites.has(siteId)) {
        issues.push({
          path: sitePath,
          message: `site ${siteId} is not a site in use of study ${study.study_id}`,
        });
      }
      seenSites.add(siteId);
    });
  });
  return issues;
}

/**
 * Replaces the user's studies and sites by the given ones. A study kept keeps its other scope
 * codes and gains or loses the export right as given; a role or site taken away is a delete the
 * audit trail records.
 */
export async function replaceStudyAccess(
  tx: Transaction,
  userId: number,
  access: readonly StaffStudyAccess[],
) {
  const current = await tx
    .select({ studyId: studyPermissions.studyId, role: studyPermissions.role, scope: studyPermissions.scope })
    .from(studyPermissions)
    .where(eq(studyPermissions.userId, userId));
  const wanted = new Map(access.map((study) => [study.study_id, study]));
  for (const held of current) {
    const next = wanted.get(held.studyId);
    const heldThere = and(eq(studyPermissions.userId, userId), eq(studyPermissions.studyId, held.studyId));
    if (!next) {
      await tx.delete(studyPermissions).where(heldThere);
      continue;
    }
    const mayExport = next.may_export ?? false;
    const scope =
      scopeMayExport(held.scope) === mayExport
        ? held.scope
        : mayExport
          ? [...held.scope, STUDY_RIGHT.export]
          : held.scope.filter((code) => code !== STUDY_RIGHT.export);
    if (next.role !== held.role || scope !== held.scope) {
      await tx.update(studyPermissions).set({ role: next.role, scope }).where(heldThere);
    }
  }
  const heldIds = new Set(current.map((held) => held.studyId));
  const added = access.filter((study) => !heldIds.has(study.study_id));
  if (added.length > 0) {
    await tx.insert(studyPermissions).values(
      added.map((study) => ({
        userId,
        studyId: study.study_id,
        role: study.role,
        scope: studyScopeOf({ mayExport: study.may_export ?? false }),
      })),
    );
  }
  const currentSites = await tx
    .select({ siteId: sitePermissions.siteId })
    .from(sitePermissions)
    .where(eq(sitePermissions.userId, userId));
  const wantedSites = new Set(access.flatMap((study) => study.site_ids));
  const gone = currentSites.map((row) => row.siteId).filter((siteId) => !wantedSites.has(siteId));
  if (gone.length > 0) {
    await tx
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, userId), inArray(sitePermissions.siteId, gone)));
  }
  const heldSites = new Set(currentSites.map((row) => row.siteId));
  const newSites = [...wantedSites].filter((siteId) => !heldSites.has(siteId));
  if (newSites.length > 0) {
    await tx.insert(sitePermissions).values(newSites.map((siteId) => ({ userId, siteId })));
  }
}

export type StaffInvitation = {
  email: string;
  name: string;
  managementRole: AssignableRole;
  studies: readonly StaffStudyAccess[];
};

/** The existing accounts among these emails (lower-cased), with whether each is deactivated. */
export async function existingAccounts(db: Executor, emails: string[]) {
  if (emails.length === 0) return new Map<string, { deactivated: boolean }>();
  const rows = await db
    .select({ username: users.username, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(inArray(users.username, emails));
  return new Map(rows.map((row) => [row.username, { deactivated: row.deactivatedAt !== null }]));
}

/** Why an email cannot be invited, or null. */
export function emailInUseProblem(account: { deactivated: boolean } | undefined) {
  if (!account) return null;
  return account.deactivated
    ? "belongs to a deactivated account: reactivate it instead of inviting it again"
    : "already has an account";
}

/** Makes the invited user (no usable password) with their studies and sites; answers its id. */
export async function insertInvitedUser(
  tx: Transaction,
  invitation: StaffInvitation,
  createdBy: number | null,
) {
  const [created] = await tx
    .insert(users)
    .values({
      username: invitation.email,
      passwordHash: UNUSABLE_PASSWORD_HASH,
      name: invitation.name,
      nickname: invitation.name,
      fname: invitation.name.split(/\s+/)[0] ?? invitation.name,
      role: invitation.managementRole,
      scope: userScopeFor(invitation.managementRole),
      createdBy,
    })
    .returning({ id: users.id, username: users.username, name: users.name });
  if (!created) throw new Error("The invited user was not created");
  await replaceStudyAccess(tx, created.id, invitation.studies);
  return created;
}

/** PostgreSQL's unique violation: a concurrent invitation took the email first. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

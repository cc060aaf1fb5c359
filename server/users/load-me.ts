/**
 * Builds the user as GET /control/clinro/users/me answers it, permissions keyed by study.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { MeResponse, StudyPermission } from "../../core/contracts/user.ts";
import type { Database } from "../db/client.ts";
import type { users } from "../db/schema.ts";
import { sitePermissions, sites, studies, studyPermissions } from "../db/schema.ts";

type UserRow = typeof users.$inferSelect;

export async function loadPermissions(db: Database, userId: number) {
  const studyRows = await db
    .select({
      studyId: studies.id,
      studyName: studies.name,
      smsEnabled: studies.smsEnabled,
      newConsentEnabled: studies.newConsentEnabled,
      role: studyPermissions.role,
      scope: studyPermissions.scope,
    })
    .from(studyPermissions)
    .innerJoin(studies, eq(studies.id, studyPermissions.studyId))
    .where(eq(studyPermissions.userId, userId))
    .orderBy(studies.id);
  const siteRows = await db
    .select({
      studyId: sites.studyId,
      siteId: sites.id,
      label: sites.label,
      treeLevel: sites.treeLevel,
      isVirtual: sites.isVirtual,
    })
    .from(sitePermissions)
    .innerJoin(sites, eq(sites.id, sitePermissions.siteId))
    // A retired site (removed from the study file) is not offered: its data stays readable.
    .where(and(eq(sitePermissions.userId, userId), isNull(sites.retiredAt)))
    .orderBy(sites.id);

  const permissions: Record<string, StudyPermission> = {};
  for (const row of studyRows) {
    permissions[String(row.studyId)] = {
      study_id: row.studyId,
      study_name: row.studyName,
      role: row.role,
      scope: row.scope,
      sms_enabled: row.smsEnabled,
      consent_2: row.newConsentEnabled,
      sites: siteRows
        .filter((site) => site.studyId === row.studyId)
        .map((site) => ({
          site_id: site.siteId,
          site_label: site.label,
          tree_level: site.treeLevel,
          is_virtual: site.isVirtual,
        })),
    };
  }
  return permissions;
}

export async function hasStudyPermission(db: Database, userId: number, studyId: number) {
  const [row] = await db
    .select({ studyId: studyPermissions.studyId })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, userId), eq(studyPermissions.studyId, studyId)));
  return row !== undefined;
}

/** Which onboarding cards the user has dismissed (true) and which still show (false). */
export function onboardingOf(user: Pick<UserRow, "onboardingDismissed">): MeResponse["onboarding"] {
  return {
    announcements: user.onboardingDismissed.includes("announcements"),
    activities: user.onboardingDismissed.includes("activities"),
  };
}

export async function loadMe(db: Database, user: UserRow): Promise<MeResponse> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    nickname: user.nickname,
    fname: user.fname,
    phone: user.phone,
    isPhoneEnabled: user.isPhoneEnabled,
    countryDialCode: user.countryDialCode,
    role: user.role as MeResponse["role"],
    scope: user.scope,
    last_login: user.lastLogin?.toISOString() ?? null,
    created_by: user.createdBy,
    has_consented: user.hasConsented,
    is_temporary_password: user.isTemporaryPassword,
    userImage: null,
    onboarding: onboardingOf(user),
    permissions: await loadPermissions(db, user.id),
  };
}

/**
 * Who may write an announcement, and to which studies and sites: the server's rule
 * (server/announcements/announcement-records.ts) as the app shows it. A study where the user is
 * the clinical coordinator (role 16), or any study of an administrator's permissions; any of the
 * user's sites of that study, or all of them.
 */
import { ROLE_CODE } from "../../../core/contracts/roles.ts";
import type { StudyPermission } from "../../../core/contracts/user.ts";
import { USER_ADMIN_ROLES } from "../../../core/contracts/users.ts";

export type AuthorStudy = { studyId: number; studyName: string; sites: { siteId: number; label: string }[] };

export function authorStudies(
  permissions: Record<string, StudyPermission> | undefined,
  userRole: string | undefined,
): AuthorStudy[] {
  const administrator = (USER_ADMIN_ROLES as readonly string[]).includes(userRole ?? "");
  return Object.values(permissions ?? {})
    .filter((study) => administrator || study.role === ROLE_CODE.clinicalCoordinator)
    .map((study) => ({
      studyId: study.study_id,
      studyName: study.study_name,
      sites: study.sites
        .map((site) => ({ siteId: site.site_id, label: site.site_label }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    }))
    .sort((a, b) => a.studyName.localeCompare(b.studyName));
}

export function mayWriteAnnouncements(user: {
  permissions?: Record<string, StudyPermission>;
  role?: string;
}): boolean {
  return authorStudies(user.permissions, user.role).length > 0;
}

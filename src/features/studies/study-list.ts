/**
 * The study list rule of spec 01 section 4: the selectable study and site pairs are those whose
 * study scope includes 'ca' or 'cp', and whose site is virtual, at tree level 4, or the only
 * site of its study.
 */
import type { StudyPermission } from "../../../core/contracts/user.ts";

export type SelectableStudySite = {
  studyId: number;
  studyName: string;
  siteId: number;
  siteName: string;
  smsEnabled: boolean;
  newConsentEnabled: boolean;
};

const CLINICIAN_SCOPES = ["ca", "cp"];
const SELECTABLE_TREE_LEVEL = 4;

export function selectableStudySites(
  permissions: Record<string, StudyPermission> | undefined,
): SelectableStudySite[] {
  if (!permissions) return [];
  return Object.values(permissions)
    .filter((study) => study.scope.some((scope) => CLINICIAN_SCOPES.includes(scope)))
    .flatMap((study) =>
      study.sites
        .filter(
          (site) => site.is_virtual || site.tree_level === SELECTABLE_TREE_LEVEL || study.sites.length === 1,
        )
        .map((site) => ({
          studyId: study.study_id,
          studyName: study.study_name,
          siteId: site.site_id,
          siteName: site.site_label,
          smsEnabled: study.sms_enabled,
          newConsentEnabled: study.consent_2,
        })),
    )
    .sort((a, b) => a.siteName.localeCompare(b.siteName) || a.studyName.localeCompare(b.studyName));
}

/** Where choosing a pair leads: consents first when the study requires consent. */
export function pathAfterChoosing(item: SelectableStudySite) {
  const base = `/studies/${item.studyId}/sites/${item.siteId}`;
  return item.newConsentEnabled ? `${base}/consents` : `${base}/search`;
}

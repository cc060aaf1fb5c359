/**
 * Who may add and change participants at a site (the add entry beside the search, the edit entry
 * on a participant's page, the enrolment pages). Apart from enrolment-api.ts, so that the pages
 * showing an entry do not load the enrolment calls.
 */
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import type { MeResponse } from "../../core/contracts/user.ts";

/**
 * Whether the user may add and change participants at this site of this study: an enroller,
 * study manager or administrator (their management role), or the study's Clinical Coordinator
 * (16); in both cases only at a site of the study they work in. The server checks the same.
 */
export function mayEnrolAt(
  user:
    | { role?: MeResponse["role"] | undefined; permissions?: MeResponse["permissions"] | undefined }
    | null
    | undefined,
  studyId: number,
  siteId: number,
) {
  const study = user?.permissions?.[String(studyId)];
  if (!user || !study || !study.sites.some((site) => site.site_id === siteId)) return false;
  return managementRoleAllows(user.role, "participants") || study.role === ROLE_CODE.clinicalCoordinator;
}

/**
 * Whether the signed-in user works at the site of a /studies/{studyId}/sites/{siteId}/... page,
 * from their stored permissions (the me call's, refreshed on the studies page). A page of a site
 * they lack (a bookmark, a colleague's link) shows the access-denied panel instead of asking the
 * server for what it would refuse (403). Unknown permissions decide nothing: the server does.
 */
import type { MeResponse } from "../../core/contracts/user.ts";

export function lacksSite(
  permissions: MeResponse["permissions"] | undefined,
  studyId: number,
  siteId: number,
): boolean {
  if (!permissions) return false;
  const study = permissions[String(studyId)];
  return !study?.sites.some((site) => site.site_id === siteId);
}

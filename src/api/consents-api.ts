import { queryOptions } from "@tanstack/react-query";
import { myConsentsResponse } from "../contracts/consents.ts";
import { request } from "./request.ts";

export const consentKeys = {
  mine: (studyId: number | undefined, siteId: number | undefined) =>
    ["consents", "mine", studyId ?? null, siteId ?? null] as const,
};

/** GET /control/v2/clinro/me/consents, optional ?study_id and ?site_id: consents grouped by study. */
export function fetchMyConsents(
  { studyId, siteId }: { studyId?: number; siteId?: number },
  signal?: AbortSignal,
) {
  return request({
    path: "/control/v2/clinro/me/consents",
    query: { study_id: studyId, site_id: siteId },
    schema: myConsentsResponse,
    // Behind the navigation bar's dot: a failure shows no dot, never a toast or a logout.
    handle403Locally: true,
    suppressErrorToast: true,
    signal,
  });
}

export const myConsentsQuery = (studyId?: number, siteId?: number) =>
  queryOptions({
    queryKey: consentKeys.mine(studyId, siteId),
    queryFn: ({ signal }) => fetchMyConsents({ studyId, siteId }, signal),
    meta: { persist: true },
  });

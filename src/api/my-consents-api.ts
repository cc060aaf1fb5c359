/**
 * The consents list (GET /control/v2/clinro/me/consents) behind the navigation bar's Consents
 * dot, and the root of every consent query key. Its own small module: the navigation bar is in
 * the app's first download, the consent screens' calls (consents-api.ts) load with them.
 */
import { queryOptions } from "@tanstack/react-query";
import { listMyConsentsCall } from "../../core/contracts/calls/study-calls.ts";
import { callApi } from "./call-api.ts";

export const consentKeys = {
  all: ["consents"] as const,
  mine: (studyId: number | undefined, siteId: number | undefined) =>
    [...consentKeys.all, "mine", studyId ?? null, siteId ?? null] as const,
  site: (studyId: number, siteId: number) => [...consentKeys.all, "site", studyId, siteId] as const,
  participants: (consentId: number, siteId: number) =>
    [...consentKeys.all, "participants", consentId, siteId] as const,
  definition: (consentId: number, version: number, participantId: number) =>
    [...consentKeys.all, "definition", consentId, version, participantId] as const,
  /** A consent version with nobody's answers (offline signing for a participant enrolled offline). */
  blank: (consentId: number, version: number) => [...consentKeys.all, "blank", consentId, version] as const,
};

/** GET /control/v2/clinro/me/consents, optional ?study_id and ?site_id: consents grouped by study. */
export function fetchMyConsents(
  { studyId, siteId }: { studyId?: number; siteId?: number },
  signal?: AbortSignal,
) {
  return callApi(
    listMyConsentsCall,
    { query: { study_id: studyId, site_id: siteId } },
    {
      // Behind the navigation bar's dot: a failure shows no dot, never a toast or a logout.
      handle403Locally: true,
      suppressErrorToast: true,
      signal,
    },
  );
}

export const myConsentsQuery = (studyId?: number, siteId?: number) =>
  queryOptions({
    queryKey: consentKeys.mine(studyId, siteId),
    queryFn: ({ signal }) => fetchMyConsents({ studyId, siteId }, signal),
    meta: { persist: true },
  });

import { getParticipantCall, searchParticipantsCall } from "../../core/contracts/calls/study-calls.ts";
import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "./call-api.ts";

export const participantKeys = {
  /** Every participant query (a submission changes a participant's counts). */
  all: ["participants"] as const,
  detail: (studyId: number, siteId: number, participantId: number) =>
    [...participantKeys.all, studyId, siteId, participantId] as const,
  search: (studyId: number, siteId: number, text: string) =>
    [...participantKeys.all, studyId, siteId, "search", text] as const,
};

export const fetchParticipantFailMessage = msg({
  id: "error_fetch_participant",
  message: "Error fetching participant.",
});

/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants/{participantId}. A 403 (a
 * participant the user may not read) is shown as the access-denied panel, not as a logout.
 */
export function fetchParticipant(
  studyId: number,
  siteId: number,
  participantId: number,
  signal?: AbortSignal,
) {
  return callApi(
    getParticipantCall,
    { params: { studyId, siteId, participantId } },
    { failMessage: fetchParticipantFailMessage, keepSessionOn401: true, handle403Locally: true, signal },
  );
}

export const participantQuery = (studyId: number, siteId: number, participantId: number) =>
  queryOptions({
    queryKey: participantKeys.detail(studyId, siteId, participantId),
    queryFn: ({ signal }) => fetchParticipant(studyId, siteId, participantId, signal),
    meta: { persist: true },
  });

/** GET /control/studies/{studyId}/sites/{siteId}/clinro_search?search_value={text} (URL-encoded). */
export function searchParticipants(studyId: number, siteId: number, text: string, signal?: AbortSignal) {
  return callApi(
    searchParticipantsCall,
    { params: { studyId, siteId }, query: { search_value: text } },
    { signal },
  );
}

export const participantSearchQuery = (studyId: number, siteId: number, text: string) =>
  queryOptions({
    queryKey: participantKeys.search(studyId, siteId, text),
    queryFn: ({ signal }) => searchParticipants(studyId, siteId, text, signal),
    select: (data) => data.response,
  });

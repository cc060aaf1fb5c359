import {
  getParticipantCall,
  listParticipantsCall,
  searchParticipantsCall,
} from "../../core/contracts/calls/study-calls.ts";
import type { ParticipantListOrder, ParticipantListSort } from "../../core/contracts/participant-list.ts";
import { msg } from "@lingui/core/macro";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "./call-api.ts";

export const participantKeys = {
  /** Every participant query (a submission changes a participant's counts). */
  all: ["participants"] as const,
  detail: (studyId: number, siteId: number, participantId: number) =>
    [...participantKeys.all, studyId, siteId, participantId] as const,
  search: (studyId: number, siteId: number, text: string) =>
    [...participantKeys.all, studyId, siteId, "search", text] as const,
  list: (studyId: number, siteId: number, sort: ParticipantListSort, order: ParticipantListOrder) =>
    [...participantKeys.all, studyId, siteId, "list", sort, order] as const,
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
    { failMessage: fetchParticipantFailMessage, handle403Locally: true, signal },
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

/** Rows a page of the site's list asks for: a tablet's screen or two, then "Load more". */
export const PARTICIPANT_LIST_PAGE_SIZE = 25;

/** One page of GET /control/studies/{studyId}/sites/{siteId}/participants (keyset: the cursor). */
export function listParticipants(
  studyId: number,
  siteId: number,
  sort: ParticipantListSort,
  order: ParticipantListOrder,
  cursor: string | undefined,
  signal?: AbortSignal,
) {
  return callApi(
    listParticipantsCall,
    { params: { studyId, siteId }, query: { sort, order, limit: PARTICIPANT_LIST_PAGE_SIZE, cursor } },
    { signal },
  );
}

/**
 * The site's participant list, a page at a time ("Load more"). Persisted like the other lists:
 * the pages already loaded show offline after a reload.
 */
export const participantListQuery = (
  studyId: number,
  siteId: number,
  sort: ParticipantListSort,
  order: ParticipantListOrder,
) =>
  infiniteQueryOptions({
    queryKey: participantKeys.list(studyId, siteId, sort, order),
    queryFn: ({ pageParam, signal }) => listParticipants(studyId, siteId, sort, order, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.next_cursor ?? undefined,
    meta: { persist: true },
  });

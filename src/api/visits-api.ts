/**
 * The virtual visits calls (spec 01 section 7): the visits list, the room validation
 * and token renewal of a clinician's room, the participant's public join call, and the URL of
 * the built-in service's signalling WebSocket. URLs come from the calls' declarations
 * (core/contracts/calls/visit-calls.ts); this module loads with the pages that use it (the visits
 * and join routes, the room overlay), never with the app's first download.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  joinVisitCall,
  listVisitsCall,
  renewTokenCall,
  scheduleVisitCall,
  validateRoomCall,
} from "../../core/contracts/calls/visit-calls.ts";
import { SIGNAL_PATH, type ScheduleVisitRequest } from "../../core/contracts/visits.ts";
import { callApi } from "./call-api.ts";

export const visitKeys = {
  all: ["visits"] as const,
  list: (studyId: number, siteId: number) => [...visitKeys.all, "list", studyId, siteId] as const,
  join: (secret: string) => [...visitKeys.all, "join", secret] as const,
};

/** GET /control/studies/{studyId}/sites/{siteId}/clinro_visits: the visits that have not ended. */
export function fetchVisits(studyId: number, siteId: number, signal?: AbortSignal) {
  return callApi(listVisitsCall, { params: { studyId, siteId } }, { signal });
}

/** How often the visits list is fetched again while the page is open (visits end, new ones come). */
export const VISITS_REFETCH_MS = 60_000;

export const visitsQuery = (studyId: number, siteId: number) =>
  queryOptions({
    queryKey: visitKeys.list(studyId, siteId),
    queryFn: ({ signal }) => fetchVisits(studyId, siteId, signal),
    select: (data) => data.visits,
    refetchInterval: VISITS_REFETCH_MS,
  });

/**
 * POST /control/studies/{studyId}/sites/{siteId}/clinro_visits: a coordinator schedules a visit
 * (the server mails the participant the join link). One Idempotency-Key per visit asked for (the
 * caller keeps it while it retries the same visit). Refusals (400, 403, 409) are the dialog's to
 * show: no toast, and a 403 does not sign the user out.
 */
export function scheduleVisit(
  studyId: number,
  siteId: number,
  body: ScheduleVisitRequest,
  idempotencyKey: string,
) {
  return callApi(
    scheduleVisitCall,
    { params: { studyId, siteId }, body },
    {
      headers: { "Idempotency-Key": idempotencyKey },
      suppressErrorToast: true,
      handle403Locally: true,
      loaderKey: "visit-schedule",
    },
  );
}

/** Schedules a visit; the visits lists are fetched again. */
export function useScheduleVisit(studyId: number, siteId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ScheduleVisitRequest; idempotencyKey: string }) =>
      scheduleVisit(studyId, siteId, body, idempotencyKey),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: visitKeys.all }),
  });
}

/**
 * GET /control/studies/{studyId}/room_name/{roomName}/validate_room. Its failure is the room's
 * business (the room opens anyway and shows the permission-denied box): no toast, no logout.
 */
export function validateRoom(studyId: number, roomName: string) {
  return callApi(
    validateRoomCall,
    { params: { studyId, roomName } },
    { handle403Locally: true, suppressErrorToast: true },
  );
}

/** POST /control/studies/{studyId}/room_name/{roomName}/renew_token: a fresh room token. */
export function renewRoomToken(studyId: number, roomName: string) {
  return callApi(
    renewTokenCall,
    { params: { studyId, roomName } },
    { handle403Locally: true, suppressErrorToast: true },
  );
}

/**
 * GET /control/visits/join/{secret}: the participant's room (no account, no token). 404 for an
 * unknown link, 410 join_link_expired outside its window; the join page says which.
 */
export function fetchJoin(secret: string, signal?: AbortSignal) {
  return callApi(
    joinVisitCall,
    { params: { secret } },
    { suppressErrorToast: true, handle403Locally: true, signal },
  );
}

export const joinQuery = (secret: string) =>
  queryOptions({
    queryKey: visitKeys.join(secret),
    queryFn: ({ signal }) => fetchJoin(secret, signal),
    // Public: the app's default waits for a signed-in user, and the participant never is one.
    enabled: true,
    retry: false,
    // The answer holds a short-lived token: fetched once per page visit.
    staleTime: Infinity,
    gcTime: 0,
  });

/** The signalling WebSocket of the built-in video service, on this origin. */
export function signalSocketUrl(location: Pick<Location, "protocol" | "host"> = window.location) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${SIGNAL_PATH}`;
}

/** The built-in video service's signalling socket: a WebSocket, opened here at the network's door. */
export function openSignalSocket(): WebSocket {
  return new WebSocket(signalSocketUrl());
}

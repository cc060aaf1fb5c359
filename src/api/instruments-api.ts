import { listFormsCall, listInstancesCall } from "../contracts/calls/instrument-calls.ts";
import { callPath } from "../contracts/http/define-call.ts";
import { queryOptions } from "@tanstack/react-query";
import { formsListResponse, instancesListResponse } from "../contracts/instrument-lists.ts";
import { request } from "./request.ts";

export const instrumentListKeys = {
  /** Every instrument list (a submission invalidates them all). */
  all: ["instrument-lists"] as const,
  forms: (participantId: number, studyId: number) =>
    [...instrumentListKeys.all, "forms", participantId, studyId] as const,
  instances: (participantId: number, studyId: number) =>
    [...instrumentListKeys.all, "instances", participantId, studyId] as const,
};

/** GET /control/clinro/participants/{id}/instruments?study_id: the forms list (older architecture). */
export function fetchForms(participantId: number, studyId: number, signal?: AbortSignal) {
  return request({
    path: callPath(listFormsCall, { participantId }),
    query: { study_id: studyId },
    // The spec's headers of this call: the device type and the app version.
    headers: { "device-type": "web", "app-version": __APP_VERSION__ },
    schema: formsListResponse,
    handle403Locally: true,
    signal,
  });
}

/** GET /control/participants/{id}/instruments/instances?study_id (newer architecture). */
export function fetchInstances(participantId: number, studyId: number, signal?: AbortSignal) {
  return request({
    path: callPath(listInstancesCall, { participantId }),
    query: { study_id: studyId },
    schema: instancesListResponse,
    handle403Locally: true,
    signal,
  });
}

export const formsQuery = (participantId: number, studyId: number) =>
  queryOptions({
    queryKey: instrumentListKeys.forms(participantId, studyId),
    queryFn: ({ signal }) => fetchForms(participantId, studyId, signal),
    meta: { persist: true },
  });

export const instancesQuery = (participantId: number, studyId: number) =>
  queryOptions({
    queryKey: instrumentListKeys.instances(participantId, studyId),
    queryFn: ({ signal }) => fetchInstances(participantId, studyId, signal),
    meta: { persist: true },
  });

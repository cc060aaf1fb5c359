import {
  instrumentHistoryCall,
  listFormsCall,
  listInstancesCall,
  pendingInstrumentsCall,
  submissionAnswersCall,
} from "../../core/contracts/calls/instrument-calls.ts";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "./call-api.ts";

export const instrumentListKeys = {
  /** Every instrument list (a submission invalidates them all). */
  all: ["instrument-lists"] as const,
  forms: (participantId: number, studyId: number) =>
    [...instrumentListKeys.all, "forms", participantId, studyId] as const,
  instances: (participantId: number, studyId: number) =>
    [...instrumentListKeys.all, "instances", participantId, studyId] as const,
  pending: (studyId: number) => [...instrumentListKeys.all, "pending", studyId] as const,
  history: (participantId: number) => [...instrumentListKeys.all, "history", participantId] as const,
  submission: (participantId: number, submissionId: number) =>
    [...instrumentListKeys.all, "submission", participantId, submissionId] as const,
};

/** GET /control/clinro/participants/{id}/instruments?study_id: the forms list (older architecture). */
export function fetchForms(participantId: number, studyId: number, signal?: AbortSignal) {
  return callApi(
    listFormsCall,
    { params: { participantId }, query: { study_id: studyId } },
    {
      // The spec's headers of this call: the device type and the app version.
      headers: { "device-type": "web", "app-version": __APP_VERSION__ },
      handle403Locally: true,
      signal,
    },
  );
}

/** GET /control/participants/{id}/instruments/instances?study_id (newer architecture). */
export function fetchInstances(participantId: number, studyId: number, signal?: AbortSignal) {
  return callApi(
    listInstancesCall,
    { params: { participantId }, query: { study_id: studyId } },
    { handle403Locally: true, signal },
  );
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

/**
 * GET /control/pending_instruments?study_id (header version 3.4.0): the open clinician instrument
 * instances of the study's participants the user may see, oldest start first.
 */
export function fetchPendingInstruments(studyId: number, signal?: AbortSignal) {
  return callApi(
    pendingInstrumentsCall,
    { query: { study_id: studyId } },
    { handle403Locally: true, signal },
  );
}

export const pendingInstrumentsQuery = (studyId: number) =>
  queryOptions({
    queryKey: instrumentListKeys.pending(studyId),
    queryFn: ({ signal }) => fetchPendingInstruments(studyId, signal),
    meta: { persist: true },
  });

/**
 * GET /control/participants/{id}/instrument_history/clinro: the participant's submitted clinician
 * instruments (completer, completion time, version, the server's scores), newest first.
 */
export function fetchInstrumentHistory(participantId: number, signal?: AbortSignal) {
  return callApi(
    instrumentHistoryCall,
    { params: { id: participantId } },
    { handle403Locally: true, signal },
  );
}

export const instrumentHistoryQuery = (participantId: number) =>
  queryOptions({
    queryKey: instrumentListKeys.history(participantId),
    queryFn: ({ signal }) => fetchInstrumentHistory(participantId, signal),
    meta: { persist: true },
  });

/** GET /control/participants/{id}/instrument_history/clinro/{submissionId}: one submission, with its answers. */
export function fetchSubmissionAnswers(participantId: number, submissionId: number, signal?: AbortSignal) {
  return callApi(
    submissionAnswersCall,
    { params: { id: participantId, submissionId } },
    { handle403Locally: true, signal },
  );
}

/** A submission does not change: read once. */
export const submissionAnswersQuery = (participantId: number, submissionId: number) =>
  queryOptions({
    queryKey: instrumentListKeys.submission(participantId, submissionId),
    queryFn: ({ signal }) => fetchSubmissionAnswers(participantId, submissionId, signal),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { persist: true },
  });

import { getStudyCall } from "../../core/contracts/calls/study-calls.ts";
import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "./call-api.ts";

export const studyKeys = {
  all: ["studies"] as const,
  detail: (studyId: number) => [...studyKeys.all, studyId] as const,
};

/** GET /control/studies/{studyId} */
export function fetchStudy(studyId: number, signal?: AbortSignal) {
  return callApi(
    getStudyCall,
    { params: { studyId } },
    { failMessage: msg({ id: "error_fetch_study", message: "Could not fetch current study" }), signal },
  );
}

export const studyQuery = (studyId: number) =>
  queryOptions({
    queryKey: studyKeys.detail(studyId),
    queryFn: ({ signal }) => fetchStudy(studyId, signal),
    meta: { persist: true },
  });

import { getStudyCall } from "../contracts/calls/study-calls.ts";
import { callPath } from "../contracts/http/define-call.ts";
import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { studyResponse } from "../contracts/study.ts";
import { request } from "./request.ts";

export const studyKeys = {
  all: ["studies"] as const,
  detail: (studyId: number) => [...studyKeys.all, studyId] as const,
};

/** GET /control/studies/{studyId} */
export function fetchStudy(studyId: number, signal?: AbortSignal) {
  return request({
    path: callPath(getStudyCall, { studyId }),
    schema: studyResponse,
    failMessage: msg({ id: "error_fetch_study", message: "Could not fetch current study" }),
    signal,
  });
}

export const studyQuery = (studyId: number) =>
  queryOptions({
    queryKey: studyKeys.detail(studyId),
    queryFn: ({ signal }) => fetchStudy(studyId, signal),
    meta: { persist: true },
  });

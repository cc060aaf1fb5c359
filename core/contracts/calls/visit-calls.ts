/**
 * Virtual visits (spec 01 section 7): the visits list, the coordinator's scheduling,
 * a clinician's room validation and token renewal, and the participant's public join call. The
 * built-in video service's signalling WebSocket (SIGNAL_PATH) is not an HTTP call: it is not
 * declared here.
 */
import * as z from "zod/mini";
import { errorBody } from "../errors.ts";
import { defineCall } from "../http/define-call.ts";
import {
  joinParams,
  joinResponse,
  renewTokenResponse,
  roomParams,
  scheduleVisitRequest,
  scheduleVisitResponse,
  validateRoomResponse,
  visitsParams,
  visitsResponse,
} from "../visits.ts";
import { IDEMPOTENT_REFUSALS, INVALID, REFUSALS } from "./common-answers.ts";

export const listVisitsCall = defineCall({
  operationId: "listVisits",
  tag: "Visits",
  scope: "site",
  method: "GET",
  path: "/control/studies/{studyId}/sites/{siteId}/clinro_visits",
  summary: "The visits of a study's site that have not ended, ad hoc ones always, soonest first",
  params: visitsParams,
  answers: { 200: visitsResponse, ...REFUSALS },
});

export const scheduleVisitCall = defineCall({
  operationId: "scheduleVisit",
  tag: "Visits",
  scope: "site",
  method: "POST",
  path: "/control/studies/{studyId}/sites/{siteId}/clinro_visits",
  summary: "A coordinator schedules a visit for a participant of the site (the join link is mailed once)",
  params: visitsParams,
  body: scheduleVisitRequest,
  idempotent: true,
  answers: {
    201: scheduleVisitResponse.check(
      z.describe("Scheduled (a repeated Idempotency-Key is answered from the record)"),
    ),
    // 400 also for a visit that would already have ended; 409 also for a study without virtual visits.
    ...IDEMPOTENT_REFUSALS,
    404: errorBody,
  },
});

/** What validate_room and renew_token refuse: a room not in the study, a visit without a room, an ended visit. */
const roomAnswers = { ...REFUSALS, 404: errorBody, 409: errorBody, 410: errorBody } as const;

export const validateRoomCall = defineCall({
  operationId: "validateRoom",
  tag: "Visits",
  scope: "site",
  method: "GET",
  path: "/control/studies/{studyId}/room_name/{roomName}/validate_room",
  summary: "A clinician's way into a visit's room: a room token and whether the visit is recorded",
  params: roomParams,
  answers: { 200: validateRoomResponse, ...roomAnswers },
});

export const renewTokenCall = defineCall({
  operationId: "renewToken",
  tag: "Visits",
  scope: "site",
  method: "POST",
  path: "/control/studies/{studyId}/room_name/{roomName}/renew_token",
  summary: "A fresh room token before the old one expires (writes nothing: no Idempotency-Key)",
  params: roomParams,
  answers: { 200: renewTokenResponse, ...roomAnswers },
});

export const joinVisitCall = defineCall({
  operationId: "joinVisit",
  tag: "Visits",
  scope: "public",
  method: "GET",
  path: "/control/visits/join/{secret}",
  summary:
    "The participant's room from the mailed join link, inside its window (asking again renews the token)",
  public: true,
  params: joinParams,
  answers: { 200: joinResponse, ...INVALID, 404: errorBody, 410: errorBody },
});

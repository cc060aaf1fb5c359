/**
 * Instrument events (opened, quit, completed...): sent through the outbox.
 */
import { postEventsQuery, postEventsRequest, postEventsResponse } from "../events.ts";
import { defineCall } from "../http/define-call.ts";
import { IDEMPOTENT_REFUSALS } from "./common-answers.ts";

export const postEventsCall = defineCall({
  operationId: "postEvents",
  tag: "Events",
  scope: "participant",
  method: "POST",
  path: "/control/participants/me/events",
  summary: "Record instrument events (opened, quit, completed, ...)",
  query: postEventsQuery,
  body: postEventsRequest,
  idempotent: true,
  answers: { 200: postEventsResponse, ...IDEMPOTENT_REFUSALS },
});

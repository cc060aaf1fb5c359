/**
 * Enrolment: adding participants at a site, one (from the outbox too) or a CSV of many, and
 * editing one.
 */
import { defineCall } from "../http/define-call.ts";
import { enrolParticipantRequest, enrolParticipantResponse } from "../enrolment.ts";
import { siteParams } from "../participant.ts";
import { IDEMPOTENT_REFUSALS } from "./common-answers.ts";

export const enrolParticipantCall = defineCall({
  operationId: "enrolParticipant",
  tag: "Studies and participants",
  method: "POST",
  path: "/control/studies/{studyId}/sites/{siteId}/participants",
  summary:
    "Add a participant at a site: gives them the study's scheduled instruments and its consents; the same client_id again answers the participant already made",
  params: siteParams,
  body: enrolParticipantRequest,
  idempotent: true,
  answers: { 201: enrolParticipantResponse, ...IDEMPOTENT_REFUSALS },
});

/**
 * Enrolment: adding participants at a site, one (from the outbox too) or a CSV of many, and
 * editing one.
 */
import { defineCall } from "../http/define-call.ts";
import {
  editParticipantRequest,
  enrolParticipantRequest,
  enrolParticipantResponse,
  participantImportRefusal,
  participantImportRequest,
  participantImportResponse,
} from "../enrolment.ts";
import { errorBody } from "../errors.ts";
import { participantParams, siteParams } from "../participant.ts";
import { IDEMPOTENT_REFUSALS, REFUSALS } from "./common-answers.ts";

export const enrolParticipantCall = defineCall({
  operationId: "enrolParticipant",
  tag: "Studies and participants",
  scope: "site",
  method: "POST",
  path: "/control/studies/{studyId}/sites/{siteId}/participants",
  summary:
    "Add a participant at a site: gives them the study's scheduled instruments and its consents; the same client_id again answers the participant already made",
  params: siteParams,
  body: enrolParticipantRequest,
  idempotent: true,
  answers: { 201: enrolParticipantResponse, ...IDEMPOTENT_REFUSALS },
});

export const editParticipantCall = defineCall({
  operationId: "editParticipant",
  tag: "Studies and participants",
  scope: "participant",
  method: "PATCH",
  path: "/control/studies/{studyId}/sites/{siteId}/participants/{participantId}",
  summary:
    "Change a participant's subject id, names, date of birth, gender and email (every field given; the subject id stays unique in the study)",
  params: participantParams,
  body: editParticipantRequest,
  answers: { 200: enrolParticipantResponse, ...REFUSALS, 409: errorBody },
});

export const importParticipantsCall = defineCall({
  operationId: "importParticipants",
  tag: "Studies and participants",
  scope: "site",
  method: "POST",
  path: "/control/studies/{studyId}/sites/{siteId}/participants/import",
  summary:
    "Add a site's participants from a CSV (docs/participant-import.md): a dry run says what it would create; otherwise every row is created, or none when any row is bad (a 400 naming every bad row); a retired site is a 409",
  params: siteParams,
  body: participantImportRequest,
  answers: { 200: participantImportResponse, ...REFUSALS, 400: participantImportRefusal, 409: errorBody },
});

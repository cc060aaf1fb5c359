/**
 * Studies, participants and the consents list.
 */
import { myConsentsQuery, myConsentsResponse } from "../consents.ts";
import { defineCall } from "../http/define-call.ts";
import {
  participantParams,
  participantResponse,
  participantSearchQuery,
  participantSearchResponse,
  siteParams,
} from "../participant.ts";
import { participantListQuery, participantListResponse } from "../participant-list.ts";
import { studyIdParam, studyResponse } from "../study.ts";
import { REFUSALS } from "./common-answers.ts";

export const getStudyCall = defineCall({
  operationId: "getStudy",
  tag: "Studies and participants",
  scope: "study",
  method: "GET",
  path: "/control/studies/{studyId}",
  summary: "A study with its config and the user's sites in it",
  params: studyIdParam,
  answers: { 200: studyResponse, ...REFUSALS },
});

export const getParticipantCall = defineCall({
  operationId: "getParticipant",
  tag: "Studies and participants",
  scope: "participant",
  method: "GET",
  path: "/control/studies/{studyId}/sites/{siteId}/participants/{participantId}",
  summary: "A participant of a site the user may see",
  params: participantParams,
  answers: { 200: participantResponse, ...REFUSALS },
});

export const searchParticipantsCall = defineCall({
  operationId: "searchParticipants",
  tag: "Studies and participants",
  scope: "site",
  method: "GET",
  path: "/control/studies/{studyId}/sites/{siteId}/clinro_search",
  summary: "Participants of a site whose subject id or name holds the search text",
  params: siteParams,
  query: participantSearchQuery,
  answers: { 200: participantSearchResponse, ...REFUSALS },
});

export const listParticipantsCall = defineCall({
  operationId: "listParticipants",
  tag: "Studies and participants",
  scope: "site",
  method: "GET",
  path: "/control/studies/{studyId}/sites/{siteId}/participants",
  summary: "A site's participants, sorted and paged by a cursor (keyset)",
  params: siteParams,
  query: participantListQuery,
  answers: { 200: participantListResponse, ...REFUSALS },
});

export const listMyConsentsCall = defineCall({
  operationId: "listMyConsents",
  tag: "Studies and participants",
  scope: "site",
  method: "GET",
  path: "/control/v2/clinro/me/consents",
  summary: "The consents of the user's studies with their missing-consent counts",
  query: myConsentsQuery,
  answers: { 200: myConsentsResponse, ...REFUSALS },
});

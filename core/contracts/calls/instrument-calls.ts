/**
 * Instrument lists, definitions, submissions and history (spec 02). Events and file uploads have
 * their own modules: the outbox sends them from the app's first chunk, which must not build the
 * definition's and submission's schemas at start-up.
 */
import * as z from "zod/mini";
import { errorBody } from "../errors.ts";
import { defineCall } from "../http/define-call.ts";
import {
  DEFINITION_ZIP_CONTENT_TYPE,
  PENDING_INSTRUMENTS_HEADER_VERSION,
  SUBMISSION_HEADER_VERSION,
  definitionParams,
  definitionResponse,
  historyParams,
  submissionAnswersParams,
  submissionAnswersResponse,
  historyResponse,
  pendingInstrumentsQuery,
  pendingInstrumentsResponse,
  submissionParams,
  submissionRejected,
  submissionRequest,
  submissionResponse,
} from "../instrument-schemas.ts";
import {
  formsListQuery,
  formsListResponse,
  instancesListQuery,
  instancesListResponse,
  participantIdParam,
} from "../instrument-lists.ts";
import { IDEMPOTENT_REFUSALS, REFUSALS } from "./common-answers.ts";

export const listFormsCall = defineCall({
  operationId: "listForms",
  tag: "Instruments",
  scope: "participant",
  method: "GET",
  path: "/control/clinro/participants/{participantId}/instruments",
  summary: "A participant's forms (the older instrument architecture)",
  params: participantIdParam,
  query: formsListQuery,
  answers: { 200: formsListResponse, ...REFUSALS },
});

export const listInstancesCall = defineCall({
  operationId: "listInstances",
  tag: "Instruments",
  scope: "participant",
  method: "GET",
  path: "/control/participants/{participantId}/instruments/instances",
  summary: "A participant's instruments with their instances (the newer architecture)",
  params: participantIdParam,
  query: instancesListQuery,
  answers: { 200: instancesListResponse, ...REFUSALS },
});

const definitionAnswers = {
  200: {
    description: "The definition as JSON, or as a zip holding <slug>.json when it was imported as a zip",
    contentTypes: ["application/json", DEFINITION_ZIP_CONTENT_TYPE],
    json: definitionResponse,
  },
  ...REFUSALS,
  404: errorBody,
} as const;

export const getDefinitionCall = defineCall({
  operationId: "getDefinition",
  tag: "Instruments",
  scope: "study",
  method: "GET",
  path: "/control/studies/{studyId}/instruments/{instrumentId}/{instrument}",
  summary: "An instrument's latest survey definition (JSON, or a zip when it was imported as one)",
  params: definitionParams,
  answers: definitionAnswers,
});

export const getAdminDefinitionCall = defineCall({
  ...getDefinitionCall,
  operationId: "getAdminDefinition",
  path: "/control/admin/studies/{studyId}/instruments/{instrumentId}/{instrument}",
  summary: "The same definition at the address the app uses",
});

export const postSubmissionCall = defineCall({
  operationId: "postSubmission",
  tag: "Instruments",
  scope: "participant",
  headerVersion: SUBMISSION_HEADER_VERSION,
  method: "POST",
  path: "/control/clinro/participant/{participantId}/instruments/{instrumentId}/submission",
  summary: "Submit one completed instrument (scores are computed by the server)",
  params: submissionParams,
  body: submissionRequest,
  idempotent: true,
  answers: {
    201: submissionResponse.check(
      z.describe("Stored (a repeated Idempotency-Key is answered from the record)"),
    ),
    ...IDEMPOTENT_REFUSALS,
    400: z.union([
      submissionRejected.check(
        z.describe("Answers that disagree with the show-if logic (show_if_mismatch), each named"),
      ),
      errorBody,
    ]),
    404: errorBody,
    413: errorBody,
    422: z.union([submissionRejected, errorBody]),
  },
});

export const instrumentHistoryCall = defineCall({
  operationId: "instrumentHistory",
  tag: "Instruments",
  scope: "participant",
  method: "GET",
  path: "/control/participants/{id}/instrument_history/clinro",
  summary: "A participant's completed and pending clinician instruments",
  params: historyParams,
  answers: { 200: historyResponse, ...REFUSALS },
});

export const submissionAnswersCall = defineCall({
  operationId: "submissionAnswers",
  tag: "Instruments",
  scope: "participant",
  method: "GET",
  path: "/control/participants/{id}/instrument_history/clinro/{submissionId}",
  summary: "One submitted clinician instrument of the participant, read-only, with its answers",
  params: submissionAnswersParams,
  answers: { 200: submissionAnswersResponse, ...REFUSALS, 404: errorBody },
});

export const pendingInstrumentsCall = defineCall({
  operationId: "pendingInstruments",
  tag: "Instruments",
  scope: "study",
  headerVersion: PENDING_INSTRUMENTS_HEADER_VERSION,
  method: "GET",
  path: "/control/pending_instruments",
  summary: "Instances due for the user's participants in a study",
  query: pendingInstrumentsQuery,
  answers: { 200: pendingInstrumentsResponse, ...REFUSALS },
});

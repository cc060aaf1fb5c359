/**
 * The consent calls (spec 02 section 7): the participants of one consent, the consent definition
 * with earlier signings, the clinician and witness submissions, the signing key, the consent PDF,
 * the email and the completed consent download. (The consents list is in study-calls.ts: the
 * navigation bar's dot needs it in the app's first download; this module loads with the consent
 * screens, since consent-calls.ts brings the survey definition's schemas.)
 */
import * as z from "zod/mini";
import {
  CONSENT_HEADER_VERSION,
  blankConsentQuery,
  blankConsentResponse,
  CONSENT_PDF_CONTENT_TYPE,
  consentDefinitionQuery,
  consentDefinitionResponse,
  consentDownloadParams,
  consentDownloadQuery,
  consentEmailQuery,
  consentEmailResponse,
  consentParticipantsParams,
  consentParticipantsQuery,
  consentParticipantsResponse,
  consentPdfQuery,
  consentSubmissionBody,
  consentSubmissionParams,
  consentSubmissionResponse,
} from "../consent-schemas.ts";
import { errorBody } from "../errors.ts";
import { defineCall } from "../http/define-call.ts";
import { submissionRejected } from "../instrument-schemas.ts";
import { signingKeyResponse } from "../signing-key.ts";
import { IDEMPOTENT_REFUSALS, REFUSALS, SIGNED_OUT } from "./common-answers.ts";

export const consentParticipantsCall = defineCall({
  operationId: "consentParticipants",
  tag: "Consents",
  scope: "site",
  method: "GET",
  path: "/control/v2/clinro/me/consents/{consentId}",
  summary:
    "The participants offered a consent, with their status and version: of all the user's sites of its study, or of site_id only",
  params: consentParticipantsParams,
  query: consentParticipantsQuery,
  answers: { 200: consentParticipantsResponse, ...REFUSALS, 404: errorBody },
});

export const getConsentCall = defineCall({
  operationId: "getConsent",
  tag: "Consents",
  scope: "participant",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "GET",
  path: "/control/v2/clinro/consent",
  summary: "A consent version for one participant, with the answers and signatures of earlier signings",
  query: consentDefinitionQuery,
  answers: { 200: consentDefinitionResponse, ...REFUSALS, 404: errorBody },
});

export const getBlankConsentCall = defineCall({
  operationId: "getBlankConsent",
  tag: "Consents",
  scope: "study",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "GET",
  path: "/control/v2/clinro/consent/blank",
  summary:
    "A consent version with no participant's answers, kept by a device to sign it offline for a participant enrolled offline",
  query: blankConsentQuery,
  answers: { 200: blankConsentResponse, ...REFUSALS, 404: errorBody },
});

const consentSubmissionAnswers = {
  200: consentSubmissionResponse.check(
    z.describe(
      "The participant's status and every signature so far (a repeated Idempotency-Key is answered from the record)",
    ),
  ),
  ...IDEMPOTENT_REFUSALS,
  404: errorBody,
  413: errorBody,
  // A refused session lists its problems; a refused signer password (signing_password_invalid)
  // or a reused Idempotency-Key is the plain error body.
  422: z.union([submissionRejected, errorBody]),
} as const;

export const postClinicianConsentCall = defineCall({
  operationId: "postClinicianConsent",
  tag: "Consents",
  scope: "participant",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "POST",
  path: "/control/v2/clinro/participant/{participantId}/consent",
  summary: "Submit one consent session signed by a participant, a caregiver or a clinician (not a witness)",
  params: consentSubmissionParams,
  body: consentSubmissionBody,
  idempotent: true,
  answers: consentSubmissionAnswers,
});

export const postWitnessConsentCall = defineCall({
  operationId: "postWitnessConsent",
  tag: "Consents",
  scope: "participant",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "POST",
  path: "/control/v2/witness/participant/{participantId}/consent",
  summary: "Submit one consent session signed by a witness (witness roles only)",
  params: consentSubmissionParams,
  body: consentSubmissionBody,
  idempotent: true,
  answers: consentSubmissionAnswers,
});

export const signingKeyCall = defineCall({
  operationId: "signingKey",
  tag: "Consents",
  scope: "own",
  method: "GET",
  path: "/control/v2/signing-key",
  summary: "The public key a signer's password is encrypted to (RSA-OAEP-256, as a JWK)",
  answers: { 200: signingKeyResponse, ...SIGNED_OUT },
});

export const consentPdfCall = defineCall({
  operationId: "consentPdf",
  tag: "Consents",
  scope: "study",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "GET",
  path: "/control/v2/consent/pdf",
  summary: "A consent version as a PDF: its text, or with signature lines to sign on paper",
  query: consentPdfQuery,
  answers: {
    200: { contentTypes: [CONSENT_PDF_CONTENT_TYPE], description: "The consent (an attachment)" },
    ...REFUSALS,
    404: errorBody,
  },
});

export const consentEmailCall = defineCall({
  operationId: "consentEmail",
  tag: "Consents",
  scope: "participant",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "GET",
  path: "/control/v2/clinro/email",
  summary: "Mail the participant their consent PDF (as signed so far, or to print and sign)",
  query: consentEmailQuery,
  // 400 is also a participant without an email address (participant_has_no_email).
  answers: { 200: consentEmailResponse, ...REFUSALS, 404: errorBody },
});

export const consentDownloadCall = defineCall({
  operationId: "consentDownload",
  tag: "Consents",
  scope: "participant",
  headerVersion: CONSENT_HEADER_VERSION,
  method: "GET",
  path: "/control/v2/studies/{studyId}/participants/{ptpId}/download",
  summary:
    "The completed (or declined) consent as a PDF; x-signatures-verified says whether every signature verifies",
  params: consentDownloadParams,
  query: consentDownloadQuery,
  answers: {
    200: {
      contentTypes: [CONSENT_PDF_CONTENT_TYPE],
      description: "The completed consent (an attachment), with the x-signatures-verified header",
    },
    ...REFUSALS,
    404: errorBody,
    409: errorBody.check(z.describe("The consent is not completed yet (consent_not_completed)")),
  },
});

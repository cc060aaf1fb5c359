/**
 * Every client call of the consent screens (spec 02 section 7), typed
 * with the shared contracts: the consents list (the tab's dot and the consent search list), the
 * participants of one consent, the consent definition and the signing key (consent completion),
 * the consent PDF (print), the completed consent download and the email. Reads are queryOptions
 * factories under the "consents" root key; the blobs and the email are plain calls, made on a
 * click. The consent submissions themselves travel through the outbox (src/outbox/send-item.ts).
 */
import { msg } from "@lingui/core/macro";
import { queryOptions, useMutation } from "@tanstack/react-query";
import {
  consentDownloadCall,
  consentEmailCall,
  consentParticipantsCall,
  consentPdfCall,
  getBlankConsentCall,
  getConsentCall,
} from "../../core/contracts/calls/consent-calls.ts";
import { listMyConsentsCall } from "../../core/contracts/calls/study-calls.ts";
import { PLATFORM } from "../../core/contracts/roles.ts";
import { consentKeys } from "./my-consents-api.ts";
import { callApi } from "./call-api.ts";

export const fetchConsentListFailMessage = msg({
  id: "consents_list_fetch_failed",
  message: "The consents could not be loaded.",
});

/**
 * The consent search list: the same call for one study and site. Its failures say so, unlike
 * the dot's; a 403 (a study or site the user may not see) is the page's access-denied panel.
 */
export function fetchSiteConsents(studyId: number, siteId: number, signal?: AbortSignal) {
  return callApi(
    listMyConsentsCall,
    { query: { study_id: studyId, site_id: siteId } },
    { failMessage: fetchConsentListFailMessage, handle403Locally: true, signal },
  );
}

/** The consents of one study and site (the list page). */
export const siteConsentsQuery = (studyId: number, siteId: number) =>
  queryOptions({
    queryKey: consentKeys.site(studyId, siteId),
    queryFn: ({ signal }) => fetchSiteConsents(studyId, siteId, signal),
    meta: { persist: true },
  });

export const fetchConsentParticipantsFailMessage = msg({
  id: "consents_participants_fetch_failed",
  message: "The participants of this consent could not be loaded.",
});

/**
 * GET /control/v2/clinro/me/consents/{consentId}?site_id: the consent and its participants of
 * the site, sorted by last name, first name (the page groups them). 403: not the user's study or
 * site (the access-denied panel, not a logout); 404: no such consent.
 */
export function fetchConsentParticipants(consentId: number, siteId: number, signal?: AbortSignal) {
  return callApi(
    consentParticipantsCall,
    { params: { consentId }, query: { site_id: siteId } },
    { failMessage: fetchConsentParticipantsFailMessage, handle403Locally: true, signal },
  );
}

export const consentParticipantsQuery = (consentId: number, siteId: number) =>
  queryOptions({
    queryKey: consentKeys.participants(consentId, siteId),
    queryFn: ({ signal }) => fetchConsentParticipants(consentId, siteId, signal),
    meta: { persist: true },
  });

export const fetchConsentDefinitionFailMessage = msg({
  id: "consents_definition_fetch_failed",
  message: "The consent could not be loaded.",
});

/**
 * GET /control/v2/clinro/consent?consent_id&version&ptp_id: the consent definition of that
 * version for one participant, with the answers and signatures of earlier signings. 403 (not the
 * user's participant or consent, or a version not offered to them) is the access-denied panel.
 */
export function fetchConsentDefinition(
  { consentId, version, participantId }: { consentId: number; version: number; participantId: number },
  signal?: AbortSignal,
) {
  return callApi(
    getConsentCall,
    { query: { consent_id: consentId, version, ptp_id: participantId } },
    {
      failMessage: fetchConsentDefinitionFailMessage,
      handle403Locally: true,
      signal,
    },
  );
}

export const consentDefinitionQuery = (consentId: number, version: number, participantId: number) =>
  queryOptions({
    queryKey: consentKeys.definition(consentId, version, participantId),
    queryFn: ({ signal }) => fetchConsentDefinition({ consentId, version, participantId }, signal),
    // Kept for the device's offline use: a consent opened once can be completed without network.
    meta: { persist: true },
    retry: false,
  });

/**
 * GET /control/v2/clinro/consent/blank?consent_id&version: a consent version with no participant.
 * Kept on the device (a published version never changes) so that a participant enrolled offline
 * can sign it before the server knows them.
 */
export function fetchBlankConsent(
  { consentId, version }: { consentId: number; version: number },
  signal?: AbortSignal,
) {
  return callApi(
    getBlankConsentCall,
    { query: { consent_id: consentId, version } },
    {
      failMessage: fetchConsentDefinitionFailMessage,
      handle403Locally: true,
      suppressErrorToast: true,
      signal,
    },
  );
}

export const blankConsentQuery = (consentId: number, version: number) =>
  queryOptions({
    queryKey: consentKeys.blank(consentId, version),
    queryFn: ({ signal }) => fetchBlankConsent({ consentId, version }, signal),
    meta: { persist: true },
    // A published consent version is never changed (migration 0010's trigger refuses it).
    staleTime: Infinity,
    retry: false,
  });

export const consentPdfFailMessage = msg({
  id: "consents_pdf_failed",
  message: "The consent document could not be loaded.",
});

/**
 * GET /control/v2/consent/pdf?consent_id&version&platform=clinro[&pdf_type=print_to_sign]: the
 * consent text as a PDF, or the blank to sign on paper; the caller prints it.
 */
export function fetchConsentPdf(
  { consentId, version, printToSign = false }: { consentId: number; version: number; printToSign?: boolean },
  signal?: AbortSignal,
): Promise<Blob> {
  return callApi(
    consentPdfCall,
    {
      query: {
        consent_id: consentId,
        version,
        platform: PLATFORM,
        pdf_type: printToSign ? "print_to_sign" : undefined,
      },
    },
    {
      headers: { Accept: "application/pdf" },
      responseType: "blob",
      failMessage: consentPdfFailMessage,
      handle403Locally: true,
      loader: true,
      signal,
    },
  );
}

export const consentDownloadFailMessage = msg({
  id: "consents_download_failed",
  message: "The completed consent could not be downloaded.",
});

/**
 * GET /control/v2/studies/{studyId}/participants/{ptpId}/download?consent_id: the completed
 * consent PDF (it states itself whether every signature verifies).
 */
export function downloadCompletedConsent(
  { studyId, participantId, consentId }: { studyId: number; participantId: number; consentId: number },
  signal?: AbortSignal,
): Promise<Blob> {
  return callApi(
    consentDownloadCall,
    { params: { studyId, ptpId: participantId }, query: { consent_id: consentId } },
    {
      headers: { Accept: "application/pdf" },
      responseType: "blob",
      failMessage: consentDownloadFailMessage,
      handle403Locally: true,
      loader: true,
      signal,
    },
  );
}

/** The spec's success message of the email call. */
export const emailSentMessage = msg({ id: "consents_email_sent", message: "Email sent" });
/** The success message naming the recipient (the toast says to whom). */
export function emailSentToMessage({ name, email }: { name: string; email: string }) {
  return msg({ id: "consents_email_sent_to", message: `Email sent to ${name} (${email})` });
}
export const emailFailMessage = msg({
  id: "consents_email_failed",
  message: "The consent could not be emailed.",
});

/**
 * GET /control/v2/clinro/email?consent_id&participant_id&version[&pdf_type=print_to_sign]: mails
 * the completed consent (or the blank to sign on paper) to the participant; 'email sent' on
 * success. A participant without an email is a 400 whose message the toast shows.
 */
export function sendConsentEmail({
  consentId,
  participantId,
  version,
  printToSign = false,
  recipient,
}: {
  consentId: number;
  participantId: number;
  version: number;
  printToSign?: boolean;
  /** Who it goes to, for the success toast ("Email sent to …"); without it, 'Email sent'. */
  recipient?: { name: string; email: string };
}) {
  return callApi(
    consentEmailCall,
    {
      query: {
        consent_id: consentId,
        participant_id: participantId,
        version,
        pdf_type: printToSign ? "print_to_sign" : undefined,
      },
    },
    {
      successMessage: recipient ? emailSentToMessage(recipient) : emailSentMessage,
      failMessage: emailFailMessage,
      handle403Locally: true,
      loader: true,
    },
  );
}

/** The share menu's email, a write (it sends a mail) although the spec makes it a GET. */
export function useSendConsentEmail() {
  return useMutation({ mutationFn: sendConsentEmail });
}

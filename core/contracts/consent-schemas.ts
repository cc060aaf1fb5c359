/**
 * The consent calls (spec 02 section 7): the consent definition with
 * earlier signings, the clinician and witness consent submissions, the signing key, the
 * participants of one consent, the email, the consent PDF and the completed consent download.
 * The server validates with these schemas; the client (src/api/consents-api.ts) types its calls
 * with them. Field names are the spec's; timestamps are ISO strings with an offset; ids of rows
 * are numbers. consent_id is the consent's row id (the consents list's consent_id).
 */
import * as z from "zod/mini";
import { surveyDefinition } from "./survey-definition.ts";
import { answerRecordSchema, BROWSER_INFO_MAX_CHARACTERS } from "./survey-submission.ts";
import { consentParticipantStatus, idValue } from "./consents.ts";
import { isoMoment } from "./input-bounds.ts";
import { PLATFORM, SIGNER_ROLES, type SignerRole } from "./roles.ts";
import { passwordCiphertext, signingKid } from "./signing-attempts.ts";
import { SIGNING_PASSWORD_INVALID } from "./signing-codes.ts";

/** Header version of the consent POSTs (spec 02 section 7). */
export const CONSENT_HEADER_VERSION = "010";

/** The consent submissions may carry drawn signatures as data URLs in old clients: bodies this large. */
export const CONSENT_SUBMISSION_MAX_BYTES = 8 * 1024 * 1024;

/** The 422 code of a signature whose password check failed (signing-attempts.ts). */
export { SIGNING_PASSWORD_INVALID };
/** The 400 code of the email call when the participant has no address. */
export const PARTICIPANT_HAS_NO_EMAIL = "participant_has_no_email";

/** The download's header: "true" when every signature of the consent verifies, else "false". */
export const SIGNATURES_VERIFIED_HEADER = "x-signatures-verified";

/** Upload module name of signature images (POST /control/file/upload). */
export const CONSENT_UPLOAD_MODULE = "consent";

const timestamp = isoMoment();

// ---------------------------------------------------------------------------------------------
// Signers and the manifestation of a signature (21 CFR 11.50)

export const signerRole = z.enum(SIGNER_ROLES);

/** The meaning of a signature, by role, as it is stored, shown and printed (English, the record's language). */
export const SIGNATURE_MEANINGS = {
  participant: "Participant consent",
  caregiver: "Legally authorised representative",
  clinro: "Consent obtained by",
  witness: "Witnessed by",
} as const satisfies Record<SignerRole, string>;

export const SIGNATURE_TYPES = ["draw", "text", "camera", "image"] as const;
export const signatureType = z.enum(SIGNATURE_TYPES);
export type SignatureType = z.infer<typeof signatureType>;
/** The signature types whose value names an image uploaded with CONSENT_UPLOAD_MODULE (drawn, photographed, chosen). */
export const IMAGE_SIGNATURE_TYPES: ReadonlySet<string> = new Set<SignatureType>(["draw", "camera", "image"]);

/** One stored signature as the server reports it. */
export const signatureManifestation = z.object({
  /** The consent_signature question signed. */
  question_id: z.string(),
  role: signerRole,
  meaning: z.string(),
  printed_name: z.string(),
  signature_type: signatureType,
  /** When the device captured it (the signer's clock), with its offset. */
  captured_at: timestamp,
  /** When the server received it (server clock, UTC). */
  received_at: timestamp,
  /** IANA zone of the device that captured it (e.g. Europe/Madrid), or its UTC offset (+01:00). */
  time_zone: z.string(),
  /** True when the signature's stored hash matches the signed content recomputed now. */
  verified: z.boolean(),
});
export type SignatureManifestation = z.infer<typeof signatureManifestation>;

/** The participant named by the consent calls. */
export const consentPerson = z.object({
  id: z.number().check(z.int()),
  subject_id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.nullable(z.string()),
});
export type ConsentPerson = z.infer<typeof consentPerson>;

// ---------------------------------------------------------------------------------------------
// GET /control/v2/clinro/consent?consent_id&version&ptp_id

export const consentDefinitionQuery = z.object({
  consent_id: idValue("consent_id"),
  version: idValue("version"),
  ptp_id: idValue("ptp_id"),
});
export type ConsentDefinitionQuery = z.infer<typeof consentDefinitionQuery>;

export const consentDefinitionResponse = z.object({
  consent_id: z.number().check(z.int()),
  consent_version: z.number().check(z.int()),
  title: z.string(),
  study_id: z.number().check(z.int()),
  status: consentParticipantStatus,
  participant: consentPerson,
  /** The consent definition (type CONSENT) of that version, as published. */
  definition: surveyDefinition,
  /** The answers of earlier signings, latest per question: read-only and complete on screen. */
  records: z.array(answerRecordSchema),
  signatures: z.array(signatureManifestation),
});
export type ConsentDefinitionResponse = z.infer<typeof consentDefinitionResponse>;

// ---------------------------------------------------------------------------------------------
// GET /control/v2/clinro/consent/blank?consent_id&version

/**
 * A consent version with nobody's answers: what a device keeps while online so that a participant
 * enrolled offline (not known to the server yet) can sign it offline. It names no participant.
 */
export const blankConsentQuery = z.object({
  consent_id: idValue("consent_id"),
  version: idValue("version"),
});
export type BlankConsentQuery = z.infer<typeof blankConsentQuery>;

export const blankConsentResponse = z.object({
  consent_id: z.number().check(z.int()),
  consent_version: z.number().check(z.int()),
  title: z.string(),
  study_id: z.number().check(z.int()),
  /** The consent definition (type CONSENT) of that version, as published. */
  definition: surveyDefinition,
});
export type BlankConsentResponse = z.infer<typeof blankConsentResponse>;

// ---------------------------------------------------------------------------------------------
// POST /control/v2/clinro/participant/{participantId}/consent   (any role but a witness)
// POST /control/v2/witness/participant/{participantId}/consent  (witness roles only)
// Header version 010; Idempotency-Key.

export const consentSubmissionParams = z.object({ participantId: idValue("participantId") });
export type ConsentSubmissionParams = z.infer<typeof consentSubmissionParams>;

/** The signer's password proof: required when the records hold a clinro or witness signature. */
export const consentSigning = z.object({
  kid: signingKid,
  password_ciphertext: passwordCiphertext,
  /** When the device captured the signature, with its offset. */
  captured_at: timestamp,
  /** IANA name of the device's zone, e.g. Europe/Madrid. */
  time_zone: z
    .string()
    .check(z.minLength(1, "time_zone must not be empty"), z.maxLength(100, "time_zone is too long")),
});
export type ConsentSigning = z.infer<typeof consentSigning>;

export const consentSubmissionBody = z.object({
  consent_id: idValue("consent_id"),
  consent_version: idValue("consent_version"),
  /** This session's answers (earlier signings' records are not sent again). */
  records: z.array(answerRecordSchema).check(z.minLength(1, "records must hold at least one answer")),
  completion: timestamp,
  browser_info: z.optional(z.string().check(z.maxLength(BROWSER_INFO_MAX_CHARACTERS))),
  signing: z.optional(consentSigning),
});
export type ConsentSubmissionBody = z.infer<typeof consentSubmissionBody>;

/** 200: the participant's status after this submission, and every signature stored so far. */
export const consentSubmissionResponse = z.object({
  status: consentParticipantStatus,
  signatures: z.array(signatureManifestation),
});
export type ConsentSubmissionResponse = z.infer<typeof consentSubmissionResponse>;

// ---------------------------------------------------------------------------------------------
// GET /control/v2/clinro/me/consents/{consentId}, optional ?site_id

export const consentParticipantsParams = z.object({ consentId: idValue("consentId") });
/**
 * No query (as spec 02's call table writes the call): the participants of every site of the
 * consent's study the user may work in; site_id narrows the answer to that one site.
 */
export const consentParticipantsQuery = z.object({ site_id: z.optional(idValue("site_id")) });
export type ConsentParticipantsQuery = z.infer<typeof consentParticipantsQuery>;

/** The spec's ConsentParticipant. */
export const consentParticipant = z.object({
  consent_id: z.number().check(z.int()),
  consent_participant_status: consentParticipantStatus,
  consent_version: z.number().check(z.int()),
  email: z.nullable(z.string()),
  id: z.number().check(z.int()),
  firstname: z.string(),
  lastname: z.string(),
  subject_id: z.string(),
});
export type ConsentParticipant = z.infer<typeof consentParticipant>;

/** The participants of one server status. */
export const consentParticipantGroup = z.object({
  status: consentParticipantStatus,
  participants: z.array(consentParticipant),
});

export const consentParticipantsResponse = z.object({
  consent_id: z.number().check(z.int()),
  title: z.string(),
  /** The consent's latest version. */
  version: z.number().check(z.int()),
  date_deployed: timestamp,
  /**
   * The participants of the site offered the consent, grouped by status (spec 02 section 7), in
   * the order of CONSENT_PARTICIPANT_STATUSES; each group sorted by last name, first name. A
   * status nobody is in has no group. The viewer's groups (who must act) are the client's.
   */
  groups: z.array(consentParticipantGroup),
});
export type ConsentParticipantsResponse = z.infer<typeof consentParticipantsResponse>;

/** Last name, first name, as a person sorts them (accents and case aside first). */
export const NAME_ORDER = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Last name, then first name, then id: the order of every participant list of a consent. */
export function compareParticipantNames(
  a: Pick<ConsentParticipant, "lastname" | "firstname" | "id">,
  b: Pick<ConsentParticipant, "lastname" | "firstname" | "id">,
) {
  return (
    NAME_ORDER.compare(a.lastname, b.lastname) || NAME_ORDER.compare(a.firstname, b.firstname) || a.id - b.id
  );
}

/** Every participant of the answer, in name order, whatever their status. */
export function participantsOf(response: Pick<ConsentParticipantsResponse, "groups">): ConsentParticipant[] {
  return response.groups.flatMap((group) => group.participants).sort(compareParticipantNames);
}

// ---------------------------------------------------------------------------------------------
// GET /control/v2/clinro/email?consent_id&participant_id&version[&pdf_type=print_to_sign]
// GET /control/v2/consent/pdf?consent_id&version&platform=clinro[&pdf_type=print_to_sign]
// GET /control/v2/studies/{studyId}/participants/{ptpId}/download?consent_id

export const PDF_TYPES = ["print_to_sign"] as const;
export const pdfType = z.enum(PDF_TYPES, { error: "pdf_type must be print_to_sign" });

export const consentEmailQuery = z.object({
  consent_id: idValue("consent_id"),
  participant_id: idValue("participant_id"),
  version: idValue("version"),
  pdf_type: z.optional(pdfType),
});
export type ConsentEmailQuery = z.infer<typeof consentEmailQuery>;

export const consentEmailResponse = z.object({ message: z.literal("email sent") });
export type ConsentEmailResponse = z.infer<typeof consentEmailResponse>;

export const consentPdfQuery = z.object({
  consent_id: idValue("consent_id"),
  version: idValue("version"),
  platform: z.literal(PLATFORM, { error: `platform must be ${PLATFORM}` }),
  pdf_type: z.optional(pdfType),
});
export type ConsentPdfQuery = z.infer<typeof consentPdfQuery>;

export const consentDownloadParams = z.object({
  studyId: idValue("studyId"),
  ptpId: idValue("ptpId"),
});
export const consentDownloadQuery = z.object({ consent_id: idValue("consent_id") });
export type ConsentDownloadQuery = z.infer<typeof consentDownloadQuery>;

export const CONSENT_PDF_CONTENT_TYPE = "application/pdf";

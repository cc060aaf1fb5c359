/**
 * A participant's signed consent as a FHIR R4 QuestionnaireResponse of the consent version's
 * Questionnaire. A consent may be completed in two sessions, the clinician's and then a
 * witness's; the witness session is joined to the clinician's before it (same participant,
 * consent and version), so that one response holds the whole consent as signed: every answer,
 * and every signature as the core questionnaireresponse-signature extension, with its ASTM
 * E1762 type, its meaning as the consent states it, the signer and the device's time.
 */
import type { ExportConsentSigning, ExportSignature, ExportSite, ExportUser } from "../export-source.ts";
import { fhirId, versionedCanonical } from "./canonical-url.ts";
import {
  CLINRO_EXTENSION,
  RESPONSE_SIGNATURE_URL,
  SIGNATURE_MEANING_SYSTEM,
  SIGNATURE_TYPE_SYSTEM,
  type Coding,
  type Extension,
  type QuestionnaireResponse,
  type Reference,
} from "./fhir-resources.ts";
import { responseItemsOf } from "./questionnaire-response-of.ts";
import { participantReference, staffReference } from "./references.ts";
import type { SurveyDefinition } from "../../../core/contracts/survey-definition.ts";

/** The ASTM signature type of each signer role. */
const SIGNATURE_TYPES: Record<string, Coding> = {
  participant: {
    system: SIGNATURE_TYPE_SYSTEM,
    code: "1.2.840.10065.1.12.1.7",
    display: "Consent Signature",
  },
  caregiver: { system: SIGNATURE_TYPE_SYSTEM, code: "1.2.840.10065.1.12.1.7", display: "Consent Signature" },
  clinro: {
    system: SIGNATURE_TYPE_SYSTEM,
    code: "1.2.840.10065.1.12.1.5",
    display: "Verification Signature",
  },
  witness: {
    system: SIGNATURE_TYPE_SYSTEM,
    code: "1.2.840.10065.1.12.1.11",
    display: "Consent Witness Signature",
  },
};

/** One consent as signed: a clinician's session and the witness sessions that followed it. */
export type SignedConsent = { sessions: ExportConsentSigning[] };

/** Whether a session belongs to the consent gathered so far (a witness adding to it). */
export function continuesConsent(consent: SignedConsent, session: ExportConsentSigning) {
  const first = consent.sessions[0]!;
  return (
    session.endpoint === "witness" &&
    session.participant.id === first.participant.id &&
    session.consentId === first.consentId &&
    session.version === first.version
  );
}

export type ConsentResponseContext = {
  studyId: number;
  questionnaireUrl: string;
  definition: SurveyDefinition;
  site: ExportSite | undefined;
  users: ReadonlyMap<number, ExportUser>;
  publicUrl: string | undefined;
};

function instantOf(iso: string, fallback: Date) {
  const time = Date.parse(iso);
  return (Number.isNaN(time) ? fallback : new Date(time)).toISOString();
}

function signatureExtension(
  signature: ExportSignature,
  signing: ExportConsentSigning,
  context: ConsentResponseContext,
): Extension {
  const printed = signature.printedName.trim() === "" ? {} : { display: signature.printedName };
  let who: Reference;
  if (signature.signerUserId !== null) {
    who = {
      ...staffReference(context.users.get(signature.signerUserId), signature.signerUserId, context.publicUrl),
      ...printed,
    };
  } else if (signature.role === "participant") {
    who = { ...participantReference(signing.participant, context.studyId, context.publicUrl), ...printed };
  } else {
    // A caregiver signs for the participant: named, not an account of the portal.
    who = { type: "RelatedPerson", display: signature.printedName.trim() || signature.role };
  }
  // Signature.type needs one coding at least: the role's ASTM type, then the stated meaning.
  const astm = SIGNATURE_TYPES[signature.role] ?? { system: SIGNATURE_MEANING_SYSTEM, code: signature.role };
  const meaning =
    signature.meaning.trim() === "" ? [] : [{ system: SIGNATURE_MEANING_SYSTEM, display: signature.meaning }];
  return {
    url: RESPONSE_SIGNATURE_URL,
    valueSignature: {
      type: [astm, ...meaning],
      when: instantOf(signature.capturedAt, signature.receivedAt),
      who,
    },
  };
}

export function consentResponseOf(
  consent: SignedConsent,
  context: ConsentResponseContext,
): QuestionnaireResponse {
  const [first] = consent.sessions;
  const last = consent.sessions.at(-1)!;
  // A later session's record of a question replaces an earlier one's (the witness's own questions).
  const records = new Map(
    consent.sessions.flatMap((session) => session.records.map((record) => [record.id, record])),
  );
  const items = responseItemsOf(context.definition, [...records.values()], []);
  const extension: Extension[] = [
    { url: CLINRO_EXTENSION.receivedAt, valueDateTime: last.receivedAt.toISOString() },
    { url: CLINRO_EXTENSION.consentStatus, valueCode: last.status || "unknown" },
    {
      url: CLINRO_EXTENSION.consentSessions,
      valueString: consent.sessions.map((session) => `${session.endpoint}:${session.id}`).join(" "),
    },
    ...(context.site && context.site.label.trim() !== ""
      ? [{ url: CLINRO_EXTENSION.site, valueString: context.site.label }]
      : []),
    ...consent.sessions.flatMap((session) =>
      session.signatures.map((signature) => signatureExtension(signature, session, context)),
    ),
  ];
  return {
    resourceType: "QuestionnaireResponse",
    id: fhirId("consent-signing", first!.id),
    extension,
    questionnaire: versionedCanonical(context.questionnaireUrl, first!.version),
    status: "completed",
    subject: participantReference(first!.participant, context.studyId, context.publicUrl),
    authored: last.deviceCompletedAt.toISOString(),
    author: staffReference(context.users.get(first!.userId), first!.userId, context.publicUrl),
    ...(items.length > 0 ? { item: items } : {}),
  };
}

/**
 * The canonical URL of an instrument's Questionnaire, the same for every definition version
 * (the version travels beside it, `url|version`): `{PUBLIC_URL}/fhir/Questionnaire/study-{id}-{slug}`
 * when the server knows its public address, else `urn:clinro:study-{id}:questionnaire:{slug}`,
 * so that an export never names a host it made up. Ids of resources inside an export are
 * derived from the same parts and kept to FHIR's id pattern ([A-Za-z0-9-.], at most 64).
 */

function withoutTrailingSlash(url: string) {
  return url.replace(/\/+$/, "");
}

export function questionnaireCanonicalUrl(studyId: number, slug: string, publicUrl: string | undefined) {
  return publicUrl
    ? `${withoutTrailingSlash(publicUrl)}/fhir/Questionnaire/study-${studyId}-${slug}`
    : `urn:clinro:study-${studyId}:questionnaire:${slug}`;
}

/** The slug part of a consent's Questionnaire URL: consents have no slug of their own. */
export function consentQuestionnaireSlug(consentId: number) {
  return `consent-${consentId}`;
}

/** `canonical|version`, as QuestionnaireResponse.questionnaire names the version it answers. */
export function versionedCanonical(url: string, version: number | string) {
  return `${url}|${version}`;
}

/** A FHIR resource id from free parts: other characters become "-", cut to 64. */
export function fhirId(...parts: (string | number)[]) {
  return parts
    .join("-")
    .replace(/[^A-Za-z0-9.-]+/g, "-")
    .slice(0, 64);
}

/** The identifier system of participants' subject ids in one study. */
export function subjectIdSystem(studyId: number, publicUrl: string | undefined) {
  return publicUrl
    ? `${withoutTrailingSlash(publicUrl)}/fhir/study-${studyId}/subject-id`
    : `urn:clinro:study-${studyId}:subject-id`;
}

/** The identifier system of the portal's own participant ids, for participants without a subject id. */
export function participantIdSystem(studyId: number, publicUrl: string | undefined) {
  return publicUrl
    ? `${withoutTrailingSlash(publicUrl)}/fhir/study-${studyId}/participant-id`
    : `urn:clinro:study-${studyId}:participant-id`;
}

/** The identifier system of staff: their sign-in email. */
export function staffIdentifierSystem(publicUrl: string | undefined) {
  return publicUrl ? `${withoutTrailingSlash(publicUrl)}/fhir/staff-email` : "urn:clinro:staff-email";
}

/**
 * The study export in FHIR R4: every instrument version and consent version in scope as a
 * Questionnaire, then every submission and every signed consent as a QuestionnaireResponse of
 * its version (consent-response-of.ts), either as one Bundle of type collection or as NDJSON,
 * one resource a line, as FHIR Bulk Data writes it. Written as it is read: the
 * Questionnaires are few and built from the source's metadata, the responses come one at a time
 * from the source's pages, so memory stays flat as a study grows.
 */
import type { ExportSource } from "../export-source.ts";
import { consentQuestionnaireSlug, questionnaireCanonicalUrl } from "./canonical-url.ts";
import { consentResponseOf, continuesConsent, type SignedConsent } from "./consent-response-of.ts";
import type { Bundle } from "./fhir-resources.ts";
import { consentQuestionnaireOf, questionnaireOf } from "./questionnaire-of.ts";
import { questionnaireResponseOf } from "./questionnaire-response-of.ts";

export type FhirExportLayout = "bundle" | "ndjson";

export type FhirExportOptions = {
  /** The portal's public address, for canonical URLs; without it they are urn: names. */
  publicUrl?: string | undefined;
  /** The Bundle's timestamp (tests fix it). */
  now?: Date;
};

type Resource = NonNullable<Bundle["entry"]>[number]["resource"];

async function* resourcesOf(source: ExportSource, options: FhirExportOptions): AsyncIterable<Resource> {
  const studyId = source.study.id;
  const versions = new Map(
    source.instrumentVersions.map((version) => [`${version.instrumentId}:${version.versionNumber}`, version]),
  );
  for (const version of source.instrumentVersions) yield questionnaireOf(studyId, version, options.publicUrl);
  for (const version of source.consentVersions)
    yield consentQuestionnaireOf(studyId, version, options.publicUrl);
  const sites = new Map(source.sites.map((site) => [site.id, site]));
  const users = new Map(source.users.map((user) => [user.id, user]));
  for await (const submission of source.submissions("by-form")) {
    const version = versions.get(`${submission.instrumentId}:${submission.versionNumber}`);
    if (!version) {
      throw new Error(
        `submission ${submission.id} answers version ${submission.versionNumber} of instrument ${submission.instrumentId}, which the export source does not hold`,
      );
    }
    yield questionnaireResponseOf(submission, {
      studyId,
      questionnaireUrl: questionnaireCanonicalUrl(studyId, version.slug, options.publicUrl),
      definition: version.definition,
      site: sites.get(submission.participant.siteId),
      author: users.get(submission.completedBy),
      publicUrl: options.publicUrl,
    });
  }

  const consentVersions = new Map(
    source.consentVersions.map((version) => [`${version.consentId}:${version.version}`, version]),
  );
  const responseOf = (consent: SignedConsent) => {
    const [first] = consent.sessions;
    const version = consentVersions.get(`${first!.consentId}:${first!.version}`);
    if (!version) {
      throw new Error(
        `consent signing ${first!.id} signs version ${first!.version} of consent ${first!.consentId}, which the export source does not hold`,
      );
    }
    return consentResponseOf(consent, {
      studyId,
      questionnaireUrl: questionnaireCanonicalUrl(
        studyId,
        consentQuestionnaireSlug(first!.consentId),
        options.publicUrl,
      ),
      definition: version.definition,
      site: sites.get(first!.participant.siteId),
      users,
      publicUrl: options.publicUrl,
    });
  };
  // Signings come by participant, then consent, then receipt: a witness's session follows the
  // clinician's it completes, and is joined to it.
  let consent: SignedConsent | undefined;
  for await (const session of source.consentSignings()) {
    if (consent && continuesConsent(consent, session)) {
      consent.sessions.push(session);
      continue;
    }
    if (consent) yield responseOf(consent);
    consent = { sessions: [session] };
  }
  if (consent) yield responseOf(consent);
}

export async function* writeFhirExport(
  source: ExportSource,
  layout: FhirExportLayout,
  options: FhirExportOptions = {},
): AsyncIterable<string> {
  if (layout === "ndjson") {
    for await (const resource of resourcesOf(source, options)) yield `${JSON.stringify(resource)}\n`;
    return;
  }
  const timestamp = (options.now ?? new Date()).toISOString();
  // FHIR JSON has no empty arrays: "entry" opens with the first resource, if there is one.
  yield `{"resourceType":"Bundle","type":"collection","timestamp":${JSON.stringify(timestamp)}`;
  let first = true;
  for await (const resource of resourcesOf(source, options)) {
    yield `${first ? ',"entry":[' : ","}\n${JSON.stringify({ resource })}`;
    first = false;
  }
  yield first ? "}\n" : "\n]}\n";
}

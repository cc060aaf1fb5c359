/**
 * The study export in FHIR R4: every instrument version in scope as a Questionnaire, then every
 * submission as a QuestionnaireResponse of its version, either as one Bundle of type collection
 * or as NDJSON, one resource a line, as FHIR Bulk Data writes it. Written as it is read: the
 * Questionnaires are few and built from the source's metadata, the responses come one at a time
 * from the source's pages, so memory stays flat as a study grows.
 */
import type { ExportSource } from "../export-source.ts";
import { questionnaireCanonicalUrl } from "./canonical-url.ts";
import type { Bundle } from "./fhir-resources.ts";
import { questionnaireOf } from "./questionnaire-of.ts";
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

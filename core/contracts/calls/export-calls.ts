/**
 * The study export (core/contracts/study-export.ts): a study's collected data in the field's
 * standards, for the researchers, study managers and administrators of the study.
 */
import { defineCall } from "../http/define-call.ts";
import { EXPORT_CONTENT_TYPES, studyExportParams, studyExportQuery } from "../study-export.ts";
import { REFUSALS } from "./common-answers.ts";

export const exportStudyCall = defineCall({
  operationId: "exportStudy",
  tag: "Exports",
  scope: "site",
  method: "GET",
  path: "/control/studies/{studyId}/export",
  summary:
    "A study's submissions and consents as a zip of CSV files (REDCap's layout, with a codebook), CDISC ODM 1.3.2 XML, or FHIR R4 (a Bundle, or NDJSON with layout=ndjson), optionally narrowed to sites, instruments and a range of receipt times; streamed, and written to the audit trail (researchers, study managers and administrators of the study)",
  params: studyExportParams,
  query: studyExportQuery,
  answers: {
    200: {
      contentTypes: [
        EXPORT_CONTENT_TYPES.csv,
        EXPORT_CONTENT_TYPES.odm,
        EXPORT_CONTENT_TYPES.fhirBundle,
        EXPORT_CONTENT_TYPES.fhirNdjson,
      ],
      description: "The export, as an attachment named study-{studyId}-{date}.{zip|xml|json|ndjson}",
    },
    ...REFUSALS,
  },
});

/**
 * What reading an instrument in a standard format yields (FHIR R4 Questionnaire, REDCap data
 * dictionary or instrument zip, CDISC ODM 1.3.2 form metadata): a definition the survey engine
 * accepts, and a report of everything in the file that could not be mapped. Nothing is ever
 * dropped silently: what a reader leaves out, it names in the report.
 *
 * A file that cannot be read at all (not XML, not a Questionnaire, no fields...) is refused with
 * an ImportError (server/instruments/import-instrument.ts) and nothing is stored.
 */
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";

export const IMPORT_FORMATS = ["fhir", "redcap", "odm"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One thing the reader could not carry over, or carried over only in part. */
export type ImportReportEntry = {
  /** Where in the source: a linkId, a REDCap field name, an ODM OID, with its path when useful. */
  source: string;
  /** What happened, in words a data manager reads: "calculatedExpression not a plain sum: not imported as a score". */
  problem: string;
};

export type ImportedInstrument = {
  /** Passes parseSurveyDefinition (core/survey-engine/validate-definition.ts). */
  definition: SurveyDefinition;
  /** The instrument's title in the source. */
  title: string;
  /** A slug (SLUG_PATTERN) derived from the source's name. */
  slug: string;
  report: ImportReportEntry[];
};

/** One reader per format: the file's bytes and name in, an instrument out, or an ImportError. */
export type InstrumentReader = (bytes: Uint8Array, fileName: string) => ImportedInstrument;

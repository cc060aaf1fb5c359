/**
 * The study export (CDISC ODM, FHIR and CSV): which formats a study's collected data leaves in, and
 * the query of GET /control/studies/{studyId}/export.
 *
 * - format: csv (a zip of CSV files, REDCap's layout), odm (CDISC ODM 1.3.2 XML) or fhir (FHIR R4
 *   Questionnaires and QuestionnaireResponses, as a Bundle or as NDJSON: layout).
 * - site_id and instrument_id narrow the export; each may be repeated (site_id=1&site_id=2) or a
 *   comma list (site_id=1,2), or both. Absent: every site, every instrument of the study.
 * - from and to narrow by the server's receipt time: a date (YYYY-MM-DD, a UTC day) or a date
 *   and time with its offset. from is inclusive; to is exclusive for a date and time, and a date
 *   includes its whole day (to=2026-11-27 takes everything received on the 27th).
 *
 * Plain data and zod only: the app and the server both import it.
 */
import * as z from "zod/mini";
import { MAX_ID, momentProblem, rowId } from "./input-bounds.ts";

export const EXPORT_FORMATS = ["csv", "odm", "fhir"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const FHIR_LAYOUTS = ["bundle", "ndjson"] as const;
export type FhirLayout = (typeof FHIR_LAYOUTS)[number];

/** The content type each format (and FHIR layout) is answered with. */
export const EXPORT_CONTENT_TYPES = {
  csv: "application/zip",
  odm: "application/xml",
  fhirBundle: "application/fhir+json",
  fhirNdjson: "application/fhir+ndjson",
} as const;

/** At most this many ids in one site_id or instrument_id filter. */
export const EXPORT_FILTER_MAX_IDS = 1000;

const ID_LIST = /^\s*\d{1,10}\s*(,\s*\d{1,10}\s*)*$/;

/** Why an id filter (repeated, comma lists) is not acceptable, or null when it is. */
export function idListProblem(value: string | readonly string[]): string | null {
  const parts = typeof value === "string" ? [value] : value;
  if (parts.some((part) => !ID_LIST.test(part))) {
    return "must be ids (positive whole numbers), repeated or separated by commas";
  }
  const ids = parts.flatMap((part) => part.split(",").map(Number));
  if (ids.some((id) => id < 1 || id > MAX_ID)) return "holds an id out of range";
  if (ids.length > EXPORT_FILTER_MAX_IDS) return `may name at most ${EXPORT_FILTER_MAX_IDS} ids`;
  return null;
}

/** The ids of an id filter that idListProblem accepted, each once. */
export function idListValues(value: string | readonly string[] | undefined): number[] {
  if (value === undefined) return [];
  const parts = typeof value === "string" ? [value] : value;
  return [...new Set(parts.flatMap((part) => part.split(",").map((id) => Number(id.trim()))))];
}

const idList = (name: string) =>
  z.union([z.string(), z.array(z.string())]).check((context) => {
    const problem = idListProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: `${name} ${problem}`, input: context.value });
  });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a from/to bound is not acceptable, or null when it is. */
export function exportBoundProblem(value: string): string | null {
  if (DATE_ONLY.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value
      ? "must be a date of the calendar (YYYY-MM-DD)"
      : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    return "must be a date (YYYY-MM-DD) or a date and time with its offset (2026-11-27T09:00:00Z)";
  }
  return momentProblem(value);
}

/** The moment a from bound starts at. */
export function exportFromMoment(value: string): Date {
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** The exclusive moment a to bound ends at (a date: the end of its UTC day). */
export function exportToMoment(value: string): Date {
  return DATE_ONLY.test(value)
    ? new Date(new Date(`${value}T00:00:00.000Z`).getTime() + DAY_MS)
    : new Date(value);
}

const bound = (name: string) =>
  z.string().check((context) => {
    const problem = exportBoundProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: `${name} ${problem}`, input: context.value });
  });

export const studyExportParams = z.object({ studyId: rowId("studyId") });

export const studyExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }),
  site_id: z.optional(idList("site_id")),
  instrument_id: z.optional(idList("instrument_id")),
  from: z.optional(bound("from")),
  to: z.optional(bound("to")),
  layout: z.optional(z.enum(FHIR_LAYOUTS, { error: `layout must be one of ${FHIR_LAYOUTS.join(", ")}` })),
});
export type StudyExportQuery = z.infer<typeof studyExportQuery>;

/** What an export query asks for, as the server's ExportScope reads it. */
export function exportScopeOf(
  studyId: number,
  query: Pick<StudyExportQuery, "site_id" | "instrument_id" | "from" | "to">,
) {
  return {
    studyId,
    siteIds: idListValues(query.site_id),
    instrumentIds: idListValues(query.instrument_id),
    from: query.from === undefined ? undefined : exportFromMoment(query.from),
    to: query.to === undefined ? undefined : exportToMoment(query.to),
  };
}

/**
 * The study export's formats: each one's writer (an ExportSource in, the file's bytes or text
 * out as they are made), its content type and its file name's extension. The call and the
 * command both answer "format X is not available" for a format not registered here.
 *
 * Adding a format is one entry in EXPORT_WRITERS, e.g.
 *   odm: { file: () => ODM_FILE, write: (source) => writeOdmExport(source) },
 *   fhir: {
    file: fhirFile,
    write: (source, { layout, publicUrl }) => writeFhirExport(source, layout, { publicUrl }),
  },
 */
import {
  EXPORT_CONTENT_TYPES,
  type ExportFormat,
  type FhirLayout,
} from "../../core/contracts/study-export.ts";
import { writeCsvExport } from "./csv/write-csv-export.ts";
import type { ExportSource } from "./export-source.ts";
import { writeFhirExport } from "./fhir/write-fhir-export.ts";
import { writeOdmExport } from "./odm/write-odm-export.ts";

export type ExportOptions = {
  /** FHIR only: one Bundle, or NDJSON (one resource a line, as FHIR Bulk Data writes it). */
  layout: FhirLayout;
  /** The portal's public address (PUBLIC_URL): FHIR canonical URLs start with it; else urn: names. */
  publicUrl?: string | undefined;
};

export type ExportFile = { contentType: string; extension: string };

export type ExportWriter = {
  file: (options: ExportOptions) => ExportFile;
  write: (source: ExportSource, options: ExportOptions) => AsyncIterable<string | Uint8Array>;
};

export const CSV_FILE: ExportFile = { contentType: EXPORT_CONTENT_TYPES.csv, extension: "zip" };
export const ODM_FILE: ExportFile = { contentType: EXPORT_CONTENT_TYPES.odm, extension: "xml" };
export const fhirFile = ({ layout }: ExportOptions): ExportFile =>
  layout === "ndjson"
    ? { contentType: EXPORT_CONTENT_TYPES.fhirNdjson, extension: "ndjson" }
    : { contentType: EXPORT_CONTENT_TYPES.fhirBundle, extension: "json" };

export const EXPORT_WRITERS: Partial<Record<ExportFormat, ExportWriter>> = {
  csv: { file: () => CSV_FILE, write: (source) => writeCsvExport(source) },
  odm: { file: () => ODM_FILE, write: (source) => writeOdmExport(source) },
  fhir: { file: fhirFile, write: (source, { layout }) => writeFhirExport(source, layout) },
};

export class ExportFormatUnavailable extends Error {
  constructor(readonly format: string) {
    super(`format ${format} is not available`);
  }
}

/** The writer of a format, or ExportFormatUnavailable when none is registered. */
export function exportWriter(format: ExportFormat): ExportWriter {
  const writer = EXPORT_WRITERS[format];
  if (!writer) throw new ExportFormatUnavailable(format);
  return writer;
}

/** The file's name: study-101-2026-11-27.zip (the date is today's, UTC). */
export function exportFileName(studyId: number, file: ExportFile, now = new Date()): string {
  return `study-${studyId}-${now.toISOString().slice(0, 10)}.${file.extension}`;
}

/** A writer's chunks as bytes: text as UTF-8, one kind of chunk for a Node stream. */
export async function* exportBytes(chunks: AsyncIterable<string | Uint8Array>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    yield typeof chunk === "string"
      ? Buffer.from(chunk, "utf8")
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

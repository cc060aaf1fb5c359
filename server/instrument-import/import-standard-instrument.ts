/**
 * Importing an instrument written in a field standard (FHIR R4 Questionnaire, REDCap data
 * dictionary or instrument zip, CDISC ODM 1.3.2): the format's reader turns the file into a
 * survey definition and an import report, and the definition is stored exactly as a definition
 * of our own JSON format is (importInstrument: a new instrument, or the next definition version
 * of the instrument the command names, in one transaction, audited by the database's
 * triggers). A file the reader refuses stores nothing.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Database, Transaction } from "../db/client.ts";
import { ImportError, importInstrument, type ImportOutcome } from "../instruments/import-instrument.ts";
import type { ImportedInstrument, ImportFormat, ImportReportEntry } from "./imported-instrument.ts";
import { instrumentReaderFor } from "./instrument-readers.ts";
import { readRedcapDictionary } from "./redcap/read-redcap-instrument.ts";

export type StandardReadOptions = {
  /** REDCap only: the form of a dictionary with several (default: the first). */
  form?: string | undefined;
};

/** Runs the format's reader on bytes already read; ImportError when the file cannot be read. */
export function readStandardInstrumentBytes(
  format: ImportFormat,
  bytes: Uint8Array,
  fileName: string,
  options: StandardReadOptions = {},
): ImportedInstrument {
  if (options.form !== undefined && format !== "redcap") {
    throw new ImportError(`A form name applies to REDCap dictionaries only, not to ${format}`);
  }
  const reader = instrumentReaderFor(format);
  // The form option is REDCap's own; the readers take the InstrumentReader shape.
  if (format === "redcap" && options.form !== undefined)
    return readRedcapDictionary(bytes, fileName, options);
  return reader(bytes, fileName);
}

/** Reads the file and runs the format's reader; ImportError when it cannot be read. */
export async function readStandardInstrument(
  format: ImportFormat,
  filePath: string,
  options: StandardReadOptions = {},
): Promise<ImportedInstrument> {
  // Checked first: an unregistered format is refused whatever the file.
  instrumentReaderFor(format);
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (error) {
    throw new ImportError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  return readStandardInstrumentBytes(format, new Uint8Array(bytes), path.basename(filePath), options);
}

export type StandardImportOptions = {
  studyId: number;
  format: ImportFormat;
  filePath: string;
  form?: string | undefined;
  name?: string | undefined;
  slug?: string | undefined;
  permissions?: string[] | undefined;
  newVersionOf?: string | undefined;
  dryRun?: boolean | undefined;
};

export type StandardImportOutcome = ImportOutcome & { report: ImportReportEntry[]; title: string };

/** Reads the file in its format and stores the definition; see the module header. */
export async function importStandardInstrument(
  db: Database | Transaction,
  options: StandardImportOptions,
): Promise<StandardImportOutcome> {
  const imported = await readStandardInstrument(options.format, options.filePath, { form: options.form });
  return storeImportedInstrument(db, imported, options);
}

/** Stores an instrument a reader produced, as importInstrument stores our own JSON. */
export async function storeImportedInstrument(
  db: Database | Transaction,
  imported: ImportedInstrument,
  options: Pick<
    StandardImportOptions,
    "studyId" | "name" | "slug" | "permissions" | "newVersionOf" | "dryRun"
  >,
): Promise<StandardImportOutcome> {
  const outcome = await importInstrument(db, {
    studyId: options.studyId,
    file: { json: imported.definition, servedAs: "json", baseName: imported.slug },
    // Without --name, importInstrument names a new instrument by the definition's title.
    name: options.name,
    slug: options.slug,
    permissions: options.permissions,
    newVersionOf: options.newVersionOf,
    dryRun: options.dryRun,
  });
  return { ...outcome, report: imported.report, title: imported.title };
}

/** The report as the command prints it: one line per unmapped thing, or "everything mapped". */
export function describeImportReport(report: readonly ImportReportEntry[]): string[] {
  if (report.length === 0) return ["Import report: everything mapped."];
  return [
    `Import report: ${report.length} thing${report.length === 1 ? "" : "s"} not mapped, or mapped in part:`,
    ...report.map((entry) => `  ${entry.source}: ${entry.problem}`),
  ];
}

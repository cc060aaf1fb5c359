/**
 * `clinro export --study ID --format csv|odm|fhir [--site ID]... [--instrument ID]... [--from D]
 * [--to D] [--layout bundle|ndjson] [--out FILE]`: the study export the API's call gives
 * (server/study-export/), written to FILE (which must not exist yet) or to standard output.
 * The filters read as the call's (core/contracts/study-export.ts); --site and --instrument may
 * be repeated or hold a comma list. The export is written to the audit trail; the command line
 * is the system's hand, so the row names no user (as the other commands record themselves).
 */
import { open, rm, type FileHandle } from "node:fs/promises";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import {
  EXPORT_FORMATS,
  FHIR_LAYOUTS,
  exportBoundProblem,
  exportScopeOf,
  idListProblem,
  type ExportFormat,
  type FhirLayout,
} from "../../core/contracts/study-export.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { readEnv } from "../env.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { recordStudyExport } from "../study-export/export-audit.ts";
import {
  ExportFormatUnavailable,
  exportBytes,
  exportWriter,
  type ExportWriter,
} from "../study-export/export-formats.ts";
import type { ExportScope } from "../study-export/export-source.ts";
import {
  ExportStudyNotFound,
  exportScopeIssues,
  readExportSource,
} from "../study-export/read-export-source.ts";
import type { CliOutput } from "./run-cli.ts";

export const EXPORT_USAGE = `  npx clinro export --study ID --format csv|odm|fhir [--site ID]... [--instrument ID]...
                        [--from DATE] [--to DATE] [--layout bundle|ndjson] [--out FILE]

  --study        the study whose submissions and consents are exported
  --format       csv (a zip of CSV files with a codebook), odm (CDISC ODM 1.3.2 XML) or fhir (FHIR R4)
  --site         only these sites (repeat it, or separate ids with commas)
  --instrument   only these instruments' submissions (repeat it, or separate ids with commas)
  --from, --to   only what the server received from (inclusive) and to (exclusive; a date
                 YYYY-MM-DD includes its whole UTC day), a date or a date and time with its offset
  --layout       fhir only: one Bundle (the default) or NDJSON, one resource a line
  --out          the file to write (it must not exist yet); standard output without it

Every export is written to the audit trail.`;

class ExportUsageError extends Error {}

export type ExportCommand = {
  studyId: number;
  format: ExportFormat;
  layout: FhirLayout | undefined;
  scope: ExportScope;
  out: string | undefined;
};

export function parseExportCommand(argv: string[]): ExportCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      study: { type: "string" },
      format: { type: "string" },
      site: { type: "string", multiple: true },
      instrument: { type: "string", multiple: true },
      from: { type: "string" },
      to: { type: "string" },
      layout: { type: "string" },
      out: { type: "string" },
    },
  });
  if (positionals.length > 0) throw new ExportUsageError(`Unexpected arguments: ${positionals.join(" ")}`);
  const study = values.study;
  if (study === undefined) throw new ExportUsageError("--study is required");
  if (idListProblem(study) !== null || study.includes(",")) {
    throw new ExportUsageError(`--study must be a study id (a positive whole number), not "${study}"`);
  }
  const format = values.format;
  if (format === undefined) throw new ExportUsageError("--format is required");
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new ExportUsageError(`--format must be one of ${EXPORT_FORMATS.join(", ")}, not "${format}"`);
  }
  const layout = values.layout;
  if (layout !== undefined) {
    if (format !== "fhir") throw new ExportUsageError("--layout applies to --format fhir only");
    if (!(FHIR_LAYOUTS as readonly string[]).includes(layout)) {
      throw new ExportUsageError(`--layout must be one of ${FHIR_LAYOUTS.join(", ")}, not "${layout}"`);
    }
  }
  for (const [name, list] of [
    ["site", values.site],
    ["instrument", values.instrument],
  ] as const) {
    const problem = list === undefined ? null : idListProblem(list);
    if (problem) throw new ExportUsageError(`--${name} ${problem}`);
  }
  for (const [name, bound] of [
    ["from", values.from],
    ["to", values.to],
  ] as const) {
    const problem = bound === undefined ? null : exportBoundProblem(bound);
    if (problem) throw new ExportUsageError(`--${name} ${problem}`);
  }
  const studyId = Number(study);
  const scope = exportScopeOf(studyId, {
    site_id: values.site,
    instrument_id: values.instrument,
    from: values.from,
    to: values.to,
  });
  if (scope.from && scope.to && scope.from >= scope.to)
    throw new ExportUsageError("--to must be after --from");
  return {
    studyId,
    format: format as ExportFormat,
    layout: layout as FhirLayout | undefined,
    scope,
    out: values.out,
  };
}

export type ExportCommandDeps = {
  handle?: DatabaseHandle;
  open: () => Promise<DatabaseHandle>;
  /** Where the export goes without --out (tests); otherwise standard output. */
  stdout?: Writable;
};

export async function runExportCommand(
  argv: string[],
  output: CliOutput,
  deps: ExportCommandDeps,
): Promise<number> {
  let command: ExportCommand;
  let writer: ExportWriter;
  try {
    command = parseExportCommand(argv);
    writer = exportWriter(command.format);
  } catch (error) {
    if (error instanceof ExportFormatUnavailable) {
      output.err(`${error.message}; nothing was exported.`);
      return 1;
    }
    if (!(error instanceof ExportUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(EXPORT_USAGE);
    return 2;
  }
  let handle: DatabaseHandle;
  try {
    handle = deps.handle ?? (await deps.open());
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(`${error.message} Nothing was exported.`);
    return 1;
  }
  try {
    const issues = await exportScopeIssues(handle.db, command.scope);
    if (issues.length > 0) {
      for (const issue of issues)
        output.err(`--${issue.path === "site_id" ? "site" : "instrument"}: ${issue.message}`);
      output.err("Nothing was exported.");
      return 1;
    }
    let source;
    try {
      source = await readExportSource(handle.db, command.scope);
    } catch (error) {
      if (!(error instanceof ExportStudyNotFound)) throw error;
      output.err(`${error.message} Nothing was exported.`);
      return 1;
    }
    const options = {
      layout: command.layout ?? "bundle",
      publicUrl: readEnv().PUBLIC_URL,
    } as const;
    // Opened before anything is recorded: a file that exists already exports nothing.
    let file: FileHandle | undefined;
    if (command.out !== undefined) {
      try {
        file = await open(command.out, "wx", 0o600);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === undefined) throw error;
        output.err(
          code === "EEXIST"
            ? `${command.out} already exists: choose a new file; nothing was exported.`
            : `Cannot write ${command.out}: ${code}; nothing was exported.`,
        );
        return 1;
      }
    }
    await recordStudyExport(handle.db, {
      actorUserId: null,
      via: "command",
      format: command.format,
      layout: command.format === "fhir" ? options.layout : undefined,
      scope: command.scope,
      requestedSiteIds: command.scope.siteIds ?? [],
    });
    const body = Readable.from(exportBytes(writer.write(source, options)));
    if (!file || command.out === undefined) {
      await pipeline(body, deps.stdout ?? process.stdout, { end: deps.stdout !== undefined });
      return 0;
    }
    try {
      await pipeline(body, file.createWriteStream());
    } catch (error) {
      // A file cut short is no export: remove what was written.
      await rm(command.out, { force: true });
      throw error;
    }
    output.out(`Wrote the ${command.format} export of study ${command.studyId} to ${command.out}.`);
    return 0;
  } finally {
    if (!deps.handle) await handle.close();
  }
}

/**
 * `clinro study apply FILE [--dry-run]` and `clinro study export --study ID`: a study set up
 * from a file (server/study-file/, docs/study-file.md). Apply checks the whole file before the
 * database is opened, prints the plan, then makes it in one transaction; export prints the
 * study in the same format. Exit codes: 0 done (or nothing to do), 1 refused (the file, or the
 * database, said no; nothing was changed), 2 the command itself was wrong.
 */
import { parseArgs } from "node:util";
import type { DatabaseHandle } from "../db/client.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { applyStudyFile } from "../study-file/apply-study-file.ts";
import { exportStudy, studyFileText } from "../study-file/export-study-file.ts";
import { formatIssue, StudyFileError } from "../study-file/file-issues.ts";
import { readStudyFile } from "../study-file/read-study-file.ts";
import type { CliOutput } from "./run-cli.ts";

export const STUDY_USAGE = `  npx clinro study apply FILE [--dry-run]
  npx clinro study export --study ID

  FILE           a study file (YAML or JSON; the format: docs/study-file.md): the study, its
                 sites, instruments with their schedules and consents
  --dry-run      print the plan only; change nothing
  --study        the study to export; the file goes to standard output

Apply prints the plan, then makes it in one transaction; applied twice, it says "no changes".
What the file no longer lists is retired, never deleted. An invalid file changes nothing and
every problem is named by its path in the file.`;

class StudyUsageError extends Error {}

type StudyCommand =
  { action: "apply"; file: string; dryRun: boolean } | { action: "export"; studyId: number };

function parseStudyCommand(argv: string[]): StudyCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { "dry-run": { type: "boolean" }, study: { type: "string" } },
  });
  const [action, ...rest] = positionals;
  if (action === "apply") {
    const [file, ...extra] = rest;
    if (file === undefined) throw new StudyUsageError("FILE is required");
    if (extra.length > 0) throw new StudyUsageError(`Unexpected arguments: ${extra.join(" ")}`);
    if (values.study !== undefined)
      throw new StudyUsageError("--study is for export: the file names its study");
    return { action: "apply", file, dryRun: values["dry-run"] === true };
  }
  if (action === "export") {
    if (rest.length > 0) throw new StudyUsageError(`Unexpected arguments: ${rest.join(" ")}`);
    if (values["dry-run"]) throw new StudyUsageError("--dry-run is for apply");
    const study = values.study;
    if (study === undefined) throw new StudyUsageError("--study is required");
    if (!/^\d{1,10}$/.test(study) || Number(study) < 1 || Number(study) > 2_147_483_647) {
      throw new StudyUsageError(`--study must be a study id (a positive whole number), not "${study}"`);
    }
    return { action: "export", studyId: Number(study) };
  }
  throw new StudyUsageError(`Unknown command: study ${positionals.join(" ") || "(none)"}`);
}

export async function runStudyCommand(
  argv: string[],
  output: CliOutput,
  database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  let command: StudyCommand;
  try {
    command = parseStudyCommand(argv);
  } catch (error) {
    if (!(error instanceof StudyUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(STUDY_USAGE);
    return 2;
  }
  const withDatabase = async (run: (handle: DatabaseHandle) => Promise<number>) => {
    const handle = database.handle ?? (await database.open());
    try {
      return await run(handle);
    } finally {
      if (!database.handle) await handle.close();
    }
  };
  try {
    if (command.action === "export") {
      const { studyId } = command;
      return await withDatabase(async (handle) => {
        const exported = await exportStudy(handle.db, studyId);
        if (!exported) {
          output.err(`Study ${studyId} does not exist.`);
          return 1;
        }
        for (const warning of exported.warnings) output.err(`Warning: ${warning}`);
        output.out(studyFileText(exported.file).replace(/\n$/, ""));
        return 0;
      });
    }
    const { file, dryRun } = command;
    // Checked before the database is opened: a bad file changes nothing and needs no database.
    const spec = await readStudyFile(file);
    return await withDatabase(async (handle) => {
      const outcome = await applyStudyFile(handle.db, spec, {
        dryRun,
        source: file,
        onPlan: (lines) => {
          if (lines.length === 0) return;
          output.out(`Plan for study ${spec.study.id} (${file}):`);
          for (const line of lines) output.out(`  ${line}`);
        },
      });
      if (outcome.lines.length === 0) {
        output.out(`Study ${outcome.studyId} already matches ${file}: no changes`);
      } else if (!outcome.applied) {
        output.out(`Dry run: ${plural(outcome.lines.length, "change")} planned, nothing was changed.`);
      } else {
        output.out(`Applied ${plural(outcome.lines.length, "change")} to study ${outcome.studyId}.`);
      }
      return 0;
    });
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      output.err(`${error.message} Nothing was changed.`);
      return 1;
    }
    if (!(error instanceof StudyFileError)) throw error;
    output.err(`${error.message}; nothing was changed${error.issues.length > 0 ? ":" : "."}`);
    for (const issue of error.issues) output.err(`  ${formatIssue(issue)}`);
    return 1;
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

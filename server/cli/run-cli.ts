/**
 * The `clinro` command (npx clinro ...): administration tasks run against the same
 * database as the server (DATABASE_URL, else PGlite under DATA_DIR), after the same migrations.
 *
 *   clinro instrument import FILE --study ID [--name NAME] [--slug SLUG] [--permissions 16,11]
 *   clinro instrument import --from fhir|redcap|odm FILE --study ID [--form NAME] [...]
 *   clinro visit schedule --study ID --site ID --participant ID --at ISO --minutes N [--recorded] [--adhoc]
 *   clinro export --study ID --format csv|odm|fhir [...] (export-commands.ts)
 *   clinro audit verify | clinro audit export FILE   (audit-commands.ts)
 *   clinro consent import FILE --study ID           (consent-commands.ts)
 *   clinro backup FILE | clinro restore FILE        (backup-commands.ts)
 *
 * Returns the exit code; prints through the given writers so tests can read what it said.
 */
import { parseArgs } from "node:util";
import {
  AUDIT_USAGE,
  AuditUsageError,
  parseAuditCommand,
  runAuditCommand,
  type AuditCommand,
} from "./audit-commands.ts";
import {
  BACKUP_USAGE,
  BackupUsageError,
  parseBackupCommand,
  runBackupCommand,
  type BackupCommand,
} from "./backup-commands.ts";
import { CONSENT_USAGE, runConsentCommand } from "./consent-commands.ts";
import { EXPORT_USAGE, runExportCommand } from "./export-commands.ts";
import { STUDY_USAGE, runStudyCommand } from "./study-commands.ts";
import { USER_USAGE, runUserCommand } from "./user-commands.ts";
import { PARTICIPANT_USAGE, runParticipantCommand } from "./participant-commands.ts";
import { ADMIN_USAGE, runAdminCommand } from "./admin-commands.ts";
import {
  ACTOR_USAGE,
  ActorUsageError,
  cliSessionSettings,
  findActingUser,
  takeActorFlag,
} from "./cli-actor.ts";
import { openDatabase, type DatabaseHandle, type SessionSettings } from "../db/client.ts";
import { migrateForServerRole } from "../db/database-roles.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { databaseOptionsFrom, readEnv } from "../env.ts";
import {
  importInstrument,
  readDefinitionFile,
  type ImportOutcome,
} from "../instruments/import-instrument.ts";
import { IMPORT_FORMATS, type ImportFormat } from "../instrument-import/imported-instrument.ts";
import {
  describeImportReport,
  readStandardInstrument,
  storeImportedInstrument,
} from "../instrument-import/import-standard-instrument.ts";
import type { AccountMailDeps } from "../users/account-mail.ts";
import { parseVisitSchedule, runVisitSchedule, VISIT_USAGE } from "./visit-schedule.ts";
import { reportImportFailure } from "./import-failure.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";

export type CliOutput = { out: (line: string) => void; err: (line: string) => void };

export type CliOptions = {
  /** A database already open and migrated (tests); otherwise the environment's is opened. */
  database?: DatabaseHandle;
  /** Where visit invitations go (tests); otherwise the environment's mailer. */
  mail?: Pick<AccountMailDeps, "mailer" | "publicUrl">;
};

export const USAGE = `Usage:
  npx clinro instrument import FILE --study ID [--name NAME] [--slug SLUG] [--permissions 16,11]
      [--new-version-of SLUG] [--dry-run]
  npx clinro instrument import --from fhir|redcap|odm FILE --study ID [--form NAME] [--name NAME]
      [--slug SLUG] [--permissions 16,11] [--new-version-of SLUG] [--dry-run]

  FILE           a survey definition: a .json file, or a .zip holding one .json file;
                 with --from, an instrument in that standard: a FHIR R4 Questionnaire (JSON),
                 a REDCap data dictionary (.csv) or instrument zip, a CDISC ODM 1.3.2 file (XML)
  --from         the standard FILE is written in (default: the portal's own JSON)
  --form         REDCap: the form to import from a dictionary holding several (default: the first)
  --study        the study to add it to
  --name         the instrument's display name (default: the definition's title, else the slug)
  --slug         the last segment of its url (default: the JSON file's name; with --from, the
                 instrument's name in the file)
  --permissions  clinician role codes that may administer it (default: 16,11,12,13)
  --new-version-of
                 the slug of the study's instrument this file is the next definition version of
  --dry-run      print what the import would do (and a new version's changes); store nothing

A slug the study already has is refused, naming its instrument, unless --new-version-of names
it: the new version is then listed change by change before it is added. The same definition as
the instrument's latest version adds nothing ("No changes").
With --from, the import report lists everything in the file the definition does not carry.

${CONSENT_USAGE}

${ADMIN_USAGE}

${STUDY_USAGE}

${USER_USAGE}

${PARTICIPANT_USAGE}

${EXPORT_USAGE}

${AUDIT_USAGE}

${BACKUP_USAGE}

${VISIT_USAGE}

Every command's writes are recorded in the audit trail as made by the operator of the shell
(details.actor_label cli:<os user>@<host>); with --as, also by that portal user (actor_user_id):
${ACTOR_USAGE}`;

class UsageError extends Error {}

function parseStudyId(value: string | undefined) {
  if (value === undefined) throw new UsageError("--study is required");
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new UsageError(`--study must be a study id (a positive whole number), not "${value}"`);
  }
  return Number(value);
}

function parsePermissions(value: string | undefined) {
  if (value === undefined) return undefined;
  const codes = value.split(",").map((code) => code.trim());
  if (codes.length === 0 || codes.some((code) => code === "")) {
    throw new UsageError(`--permissions must be role codes separated by commas, e.g. 16,11; not "${value}"`);
  }
  return [...new Set(codes)];
}

/** What an import did (or, for a dry run, would do), the changes of a new version first. */
function describeOutcome(outcome: ImportOutcome): string[] {
  const questions = `${outcome.questionCount} question${outcome.questionCount === 1 ? "" : "s"}`;
  if (outcome.kind === "created") {
    const what = `"${outcome.name}" (slug ${outcome.slug}) of study ${outcome.studyId}`;
    return outcome.dryRun
      ? [`Dry run: would create instrument ${what} with ${questions}; nothing was imported.`]
      : [
          `Created instrument ${outcome.instrumentId} ${what} with definition version ${outcome.versionNumber}, served as ${outcome.servedAs}: ${questions}.`,
        ];
  }
  const where = `instrument ${outcome.instrumentId} "${outcome.name}" (slug ${outcome.slug}) of study ${outcome.studyId}`;
  if (outcome.kind === "unchanged") {
    return [
      `No changes: definition version ${outcome.versionNumber} of ${where} is already this definition; nothing was imported.`,
    ];
  }
  const changes = [
    `Definition version ${outcome.versionNumber} (${questions}) changes from version ${outcome.versionNumber - 1}:`,
    ...outcome.changes.map((line) => `  ${line}`),
  ];
  return outcome.dryRun
    ? [...changes, `Dry run: would add it to ${where}; nothing was imported.`]
    : [
        ...changes,
        `Added definition version ${outcome.versionNumber} to ${where}, served as ${outcome.servedAs}.`,
      ];
}

function printOutcome(outcome: ImportOutcome, output: CliOutput) {
  for (const line of describeOutcome(outcome)) output.out(line);
  if (outcome.kind !== "created" && outcome.ignored.length > 0) {
    output.out(`${outcome.ignored.join(" and ")} only apply to a new instrument: left unchanged.`);
  }
}

/** CliOptions, and how the command opens its database when none is given (with its actor). */
type CliSession = CliOptions & { open: () => Promise<DatabaseHandle> };

export async function runCli(
  commandLine: string[],
  output: CliOutput,
  cliOptions: CliOptions = {},
): Promise<number> {
  let argv: string[];
  let asEmail: string | undefined;
  try {
    ({ argv, asEmail } = takeActorFlag(commandLine));
  } catch (error) {
    if (!(error instanceof ActorUsageError)) throw error;
    output.err(error.message);
    output.err(USAGE);
    return 2;
  }
  let actorUserId: number | undefined;
  if (asEmail !== undefined) {
    try {
      const handle = cliOptions.database ?? (await openMigrated(cliSessionSettings(undefined)));
      try {
        const acting = await findActingUser(handle, asEmail);
        if ("refused" in acting) {
          output.err(acting.refused);
          return 2;
        }
        actorUserId = acting.userId;
      } finally {
        if (!cliOptions.database) await handle.close();
      }
    } catch (error) {
      if (!(error instanceof DatabaseInUseError)) throw error;
      output.err(`${error.message} Nothing was changed.`);
      return 1;
    }
  }
  const settings = cliSessionSettings(actorUserId);
  const options: CliSession = { ...cliOptions, open: () => openMigrated(settings) };
  if (argv[0] === "audit") return runAudit(argv.slice(1), output, options);
  if (argv[0] === "backup" || argv[0] === "restore") return runBackup(argv, output, options, settings);
  if (argv[0] === "consent") {
    return runConsentCommand(argv.slice(1), output, { handle: options.database, open: options.open });
  }
  const database = { handle: options.database, open: options.open };
  if (argv[0] === "study") return runStudyCommand(argv.slice(1), output, database);
  if (argv[0] === "user") return runUserCommand(argv.slice(1), output, database, options.mail);
  if (argv[0] === "participant") return runParticipantCommand(argv.slice(1), output, database);
  if (argv[0] === "export") return runExportCommand(argv.slice(1), output, database);
  if (argv[0] === "admin") return runAdminCommand(argv.slice(1), output, database, options.mail);
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(USAGE);
    return 2;
  }
  if (parsed === "help") {
    output.out(USAGE);
    return 0;
  }
  if (parsed.kind === "visit") {
    try {
      const handle = options.database ?? (await options.open());
      try {
        return await runVisitSchedule(parsed, output, handle, options.mail);
      } finally {
        if (!options.database) await handle.close();
      }
    } catch (error) {
      if (!(error instanceof DatabaseInUseError)) throw error;
      output.err(`${error.message} Nothing was scheduled.`);
      return 1;
    }
  }

  if (parsed.from !== undefined) return runStandardImport(parsed, parsed.from, output, options);
  try {
    // Checked before the database is opened: a bad file changes nothing and needs no database.
    const file = await readDefinitionFile(parsed.file);
    const check = parseSurveyDefinition(file.json);
    if (!check.ok) {
      output.err(`${parsed.file} is not a valid survey definition; nothing was imported:`);
      for (const problem of check.problems) output.err(`  ${formatDefinitionProblem(problem)}`);
      return 1;
    }
    const handle = options.database ?? (await options.open());
    try {
      const outcome = await importInstrument(handle.db, {
        studyId: parsed.studyId,
        file,
        name: parsed.name,
        slug: parsed.slug,
        permissions: parsed.permissions,
        newVersionOf: parsed.newVersionOf,
        dryRun: parsed.dryRun,
      });
      printOutcome(outcome, output);
      return 0;
    } finally {
      if (!options.database) await handle.close();
    }
  } catch (error) {
    return reportImportFailure(error, output);
  }
}

/** `instrument import --from FORMAT`: the format's reader, then the same store, then the report. */
async function runStandardImport(
  parsed: ImportCommand,
  format: ImportFormat,
  output: CliOutput,
  options: CliSession,
): Promise<number> {
  try {
    // Read before the database is opened: a file the reader refuses changes nothing.
    const imported = await readStandardInstrument(format, parsed.file, { form: parsed.form });
    const handle = options.database ?? (await options.open());
    try {
      const outcome = await storeImportedInstrument(handle.db, imported, parsed);
      printOutcome(outcome, output);
      for (const line of describeImportReport(outcome.report)) output.out(line);
      return 0;
    } finally {
      if (!options.database) await handle.close();
    }
  } catch (error) {
    return reportImportFailure(error, output);
  }
}

async function runAudit(argv: string[], output: CliOutput, options: CliSession): Promise<number> {
  let command: AuditCommand;
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} });
    command = parseAuditCommand(positionals);
  } catch (error) {
    if (!(error instanceof AuditUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(USAGE);
    return 2;
  }
  try {
    const handle = options.database ?? (await options.open());
    try {
      return await runAuditCommand(command, handle, output);
    } finally {
      if (!options.database) await handle.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(error.message);
    return 1;
  }
}

async function runBackup(
  argv: string[],
  output: CliOutput,
  options: CliSession,
  settings: SessionSettings,
): Promise<number> {
  let command: BackupCommand;
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} });
    command = parseBackupCommand(positionals);
  } catch (error) {
    if (!(error instanceof BackupUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(USAGE);
    return 2;
  }
  try {
    // A restore migrates the database itself (after reading the file's header).
    const handle =
      options.database ??
      (command.action === "restore"
        ? await openDatabase({ ...databaseOptionsFrom(readEnv()), sessionSettings: settings })
        : await options.open());
    try {
      return await runBackupCommand(command, handle, output);
    } finally {
      if (!options.database) await handle.close();
    }
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(`${error.message} Stop the server first: the embedded database serves one process at a time.`);
    return 1;
  }
}

/** The environment's database, migrated, its connections carrying the command's actor. */
async function openMigrated(sessionSettings: SessionSettings) {
  const env = readEnv();
  const options = { ...databaseOptionsFrom(env), sessionSettings };
  // Two roles (docs/operations.md): the owner migrates, the command runs as the server's role.
  if (options.kind === "postgres" && env.MIGRATION_DATABASE_URL) {
    await migrateForServerRole(env.MIGRATION_DATABASE_URL, options.url);
    return openDatabase(options);
  }
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function parseCommand(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      study: { type: "string" },
      name: { type: "string" },
      slug: { type: "string" },
      permissions: { type: "string" },
      from: { type: "string" },
      form: { type: "string" },
      "new-version-of": { type: "string" },
      "dry-run": { type: "boolean" },
      site: { type: "string" },
      participant: { type: "string" },
      at: { type: "string" },
      minutes: { type: "string" },
      recorded: { type: "boolean" },
      adhoc: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help" as const;
  if (positionals[0] === "visit" && positionals[1] === "schedule") {
    if (positionals.length > 2)
      throw new UsageError(`Unexpected arguments: ${positionals.slice(2).join(" ")}`);
    const visit = parseVisitSchedule(values);
    if (typeof visit === "string") throw new UsageError(visit);
    return visit;
  }
  const [area, action, file, ...rest] = positionals;
  if (area !== "instrument" || action !== "import") {
    throw new UsageError(`Unknown command: ${positionals.join(" ") || "(none)"}`);
  }
  if (file === undefined) throw new UsageError("FILE is required");
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(" ")}`);
  const from = parseImportFormat(values.from);
  if (values.form !== undefined && from !== "redcap") {
    throw new UsageError("--form applies to REDCap dictionaries only: use it with --from redcap");
  }
  return {
    kind: "import" as const,
    file,
    studyId: parseStudyId(values.study),
    name: values.name,
    slug: values.slug,
    permissions: parsePermissions(values.permissions),
    from,
    form: values.form,
    newVersionOf: values["new-version-of"],
    dryRun: values["dry-run"] === true,
  };
}

type ImportCommand = Exclude<ReturnType<typeof parseCommand>, "help" | { kind: "visit" }>;

function parseImportFormat(value: string | undefined): ImportFormat | undefined {
  if (value === undefined) return undefined;
  const format = IMPORT_FORMATS.find((candidate) => candidate === value);
  if (format === undefined) {
    throw new UsageError(`--from must be one of ${IMPORT_FORMATS.join(", ")}; not "${value}"`);
  }
  return format;
}

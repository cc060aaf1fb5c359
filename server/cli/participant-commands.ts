/**
 * `clinro participant import FILE --study ID --site ID [--dry-run]`: a site's participant CSV
 * (docs/participant-import.md), checked and imported as the API's import does
 * (server/participants/import-participants.ts): every row or none, each bad row named by its
 * line. The command line is the system's hand: the audit trail names no user.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { and, eq } from "drizzle-orm";
import { PARTICIPANT_IMPORT_MAX_CHARS } from "../../core/contracts/enrolment.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { sites } from "../db/schema.ts";
import { importParticipantCsv } from "../participants/import-participants.ts";
import type { CliOutput } from "./run-cli.ts";

export const PARTICIPANT_USAGE = `  npx clinro participant import FILE --study ID --site ID [--dry-run]

  FILE           a CSV with the columns subject_id, first_name, last_name, date_of_birth
                 (YYYY-MM-DD), gender (m, f, o or empty) and optionally email (docs/participant-import.md)
  --study        the study the participants join
  --site         the site of that study they are enrolled at
  --dry-run      check the file and print what would be created; change nothing

Every row is created, with the study's scheduled instruments and consents, or none: a file with
a bad row imports nothing and names every bad row by its line.`;

class ParticipantUsageError extends Error {}

function parseId(name: string, value: string | undefined) {
  if (value === undefined) throw new ParticipantUsageError(`--${name} is required`);
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new ParticipantUsageError(`--${name} must be an id (a positive whole number), not "${value}"`);
  }
  return Number(value);
}

export function parseParticipantCommand(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      study: { type: "string" },
      site: { type: "string" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const [action, file, ...rest] = positionals;
  if (action !== "import") {
    throw new ParticipantUsageError(`Unknown command: participant ${positionals.join(" ")}`.trim());
  }
  if (file === undefined) throw new ParticipantUsageError("FILE is required");
  if (rest.length > 0) throw new ParticipantUsageError(`Unexpected arguments: ${rest.join(" ")}`);
  return {
    file,
    studyId: parseId("study", values.study),
    siteId: parseId("site", values.site),
    dryRun: values["dry-run"],
  };
}

export async function runParticipantCommand(
  argv: string[],
  output: CliOutput,
  database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  let command: ReturnType<typeof parseParticipantCommand>;
  try {
    command = parseParticipantCommand(argv);
  } catch (error) {
    if (!(error instanceof ParticipantUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(PARTICIPANT_USAGE);
    return 2;
  }
  let csv: string;
  try {
    csv = await readFile(command.file, "utf8");
  } catch (error) {
    output.err(`Cannot read ${command.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return 1;
  }
  if (csv.length > PARTICIPANT_IMPORT_MAX_CHARS) {
    output.err(
      `${command.file} is larger than ${PARTICIPANT_IMPORT_MAX_CHARS} characters: split it; nothing was imported.`,
    );
    return 1;
  }
  let handle: DatabaseHandle;
  try {
    handle = database.handle ?? (await database.open());
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    output.err(`${error.message} Nothing was imported.`);
    return 1;
  }
  try {
    const [site] = await handle.db
      .select({ label: sites.label, retiredAt: sites.retiredAt })
      .from(sites)
      .where(and(eq(sites.id, command.siteId), eq(sites.studyId, command.studyId)));
    if (!site) {
      output.err(`Study ${command.studyId} has no site ${command.siteId}; nothing was imported.`);
      return 1;
    }
    if (site.retiredAt !== null) {
      output.err(`The site "${site.label}" is retired: it takes no new participants; nothing was imported.`);
      return 1;
    }
    const outcome = await importParticipantCsv(handle.db, {
      actorUserId: null,
      studyId: command.studyId,
      siteId: command.siteId,
      csv,
      dryRun: command.dryRun,
      now: new Date(),
    });
    if (!outcome.ok) {
      const { refusal } = outcome;
      output.err(`${command.file}: ${refusal.message}`);
      for (const row of refusal.bad_rows ?? []) {
        for (const issue of row.issues) output.err(`  line ${row.line}: ${issue.field}: ${issue.message}`);
      }
      return 1;
    }
    const { response } = outcome;
    const where = `site ${command.siteId} ("${site.label}") of study ${command.studyId}`;
    for (const row of response.participants) {
      const made = row.id === null ? "" : ` as participant ${row.id}`;
      output.out(`  line ${row.line}: ${row.subject_id} ${row.fname} ${row.lname}${made}`);
    }
    output.out(
      response.dry_run
        ? `Dry run: ${response.created} participants would be added at ${where}; nothing was changed.`
        : `Added ${response.created} participants at ${where}, with the study's scheduled instruments and consents.`,
    );
    return 0;
  } finally {
    if (!database.handle) await handle.close();
  }
}

/**
 * `clinro consent import FILE --study ID` (see run-cli.ts for the rest): publishes a consent
 * definition in a study (server/consents/consent-definitions.ts). The file is checked before the
 * database is opened, with the engine's definition check and the consent rules, exactly as the
 * instrument import checks its files: a file that does not pass changes nothing and says which
 * question and field are wrong.
 */
import { parseArgs } from "node:util";
import { formatDefinitionProblem } from "../../core/survey-engine/validate-definition.ts";
import { importConsent, parseConsentDefinition } from "../consents/consent-definitions.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { readDefinitionFile } from "../instruments/import-instrument.ts";
import { reportImportFailure } from "./import-failure.ts";

type Output = { out: (line: string) => void; err: (line: string) => void };

export const CONSENT_USAGE = `  npx clinro consent import FILE --study ID

  FILE           a consent definition (type CONSENT): a .json file, or a .zip holding one .json file
  --study        the study to publish it in

A definition whose id the study already has becomes that consent's next version: every
participant of the consent who had not declined is asked to consent again.`;

export class ConsentUsageError extends Error {}

export function parseConsentCommand(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { study: { type: "string" } },
  });
  const [action, file, ...rest] = positionals;
  if (action !== "import") throw new ConsentUsageError(`Unknown command: consent ${positionals.join(" ")}`);
  if (file === undefined) throw new ConsentUsageError("FILE is required");
  if (rest.length > 0) throw new ConsentUsageError(`Unexpected arguments: ${rest.join(" ")}`);
  const study = values.study;
  if (study === undefined) throw new ConsentUsageError("--study is required");
  if (!/^\d{1,10}$/.test(study) || Number(study) < 1 || Number(study) > 2_147_483_647) {
    throw new ConsentUsageError(`--study must be a study id (a positive whole number), not "${study}"`);
  }
  return { file, studyId: Number(study) };
}

export async function runConsentCommand(
  argv: string[],
  output: Output,
  database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  let command: ReturnType<typeof parseConsentCommand>;
  try {
    command = parseConsentCommand(argv);
  } catch (error) {
    if (!(error instanceof ConsentUsageError) && !(error instanceof TypeError)) throw error;
    output.err(error.message);
    output.err(CONSENT_USAGE);
    return 2;
  }
  try {
    const file = await readDefinitionFile(command.file);
    const check = parseConsentDefinition(file.json);
    if (!check.ok) {
      output.err(`${command.file} is not a valid consent definition; nothing was imported:`);
      for (const problem of check.problems) output.err(`  ${formatDefinitionProblem(problem)}`);
      return 1;
    }
    const handle = database.handle ?? (await database.open());
    try {
      const outcome = await importConsent(handle.db, { studyId: command.studyId, json: file.json });
      const where = `consent ${outcome.consentId} "${outcome.title}" of study ${outcome.studyId}`;
      output.out(
        outcome.created
          ? `Created ${where}, version ${outcome.version}, offered to ${outcome.participantsAsked} participants.`
          : `Published version ${outcome.version} of ${where}; ${outcome.participantsAsked} participants are asked to consent again.`,
      );
      return 0;
    } finally {
      if (!database.handle) await handle.close();
    }
  } catch (error) {
    return reportImportFailure(error, output);
  }
}

/**
 * How an import command (instrument, consent) ends when it fails: a database another process
 * holds, or a definition with problems, each problem on its own line with its question and
 * field. Anything else is not an import failure and is thrown on.
 */
import { formatDefinitionProblem } from "../../core/survey-engine/validate-definition.ts";
import { DatabaseInUseError } from "../db/pglite-lock.ts";
import { ImportError } from "../instruments/import-instrument.ts";

type ErrorOutput = { err: (line: string) => void };

/** Prints why nothing was imported and answers the exit code (1). */
export function reportImportFailure(error: unknown, output: ErrorOutput): number {
  if (error instanceof DatabaseInUseError) {
    output.err(`${error.message} Nothing was imported.`);
    return 1;
  }
  if (!(error instanceof ImportError)) throw error;
  output.err(`${error.message}; nothing was imported.`);
  for (const problem of error.problems) output.err(`  ${formatDefinitionProblem(problem)}`);
  return 1;
}

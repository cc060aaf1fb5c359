/**
 * `clinro study ...`: see STUDY_USAGE.
 */
import type { DatabaseHandle } from "../db/client.ts";
import type { CliOutput } from "./run-cli.ts";

export const STUDY_USAGE = "";

export async function runStudyCommand(
  _argv: string[],
  output: CliOutput,
  _database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  output.err("Not available yet.");
  return 2;
}

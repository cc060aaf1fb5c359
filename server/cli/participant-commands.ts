/**
 * `clinro participant ...`: see PARTICIPANT_USAGE.
 */
import type { DatabaseHandle } from "../db/client.ts";
import type { CliOutput } from "./run-cli.ts";

export const PARTICIPANT_USAGE = "";

export async function runParticipantCommand(
  _argv: string[],
  output: CliOutput,
  _database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  output.err("Not available yet.");
  return 2;
}

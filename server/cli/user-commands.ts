/**
 * `clinro user ...`: see USER_USAGE.
 */
import type { DatabaseHandle } from "../db/client.ts";
import type { CliOutput } from "./run-cli.ts";

export const USER_USAGE = "";

export async function runUserCommand(
  _argv: string[],
  output: CliOutput,
  _database: { handle?: DatabaseHandle; open: () => Promise<DatabaseHandle> },
): Promise<number> {
  output.err("Not available yet.");
  return 2;
}

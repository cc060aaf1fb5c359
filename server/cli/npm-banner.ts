/**
 * `npm run clinro -- study export --study 7 > study.yaml` puts npm's banner ("> clinro-portal@…
 * clinro" and the command line) at the top of the file before the command even starts: npm
 * writes it on standard output unless it runs with --silent. The file is then refused by `study
 * apply` (or is a zip nothing opens). So a data command, one whose standard output is its data,
 * refuses to start under a script runner that has printed its banner into a file or a pipe, and
 * says how to run it so the output holds the data alone. `npx clinro` prints no banner.
 */
import { parseArgs } from "node:util";

/** Whether the command line writes its data on standard output: study export, export without --out. */
export function writesDataToStandardOutput(argv: readonly string[]): boolean {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: false });
  } catch {
    return false;
  }
  const [area, action] = parsed.positionals;
  if (parsed.values.help) return false;
  if (area === "study" && action === "export") return true;
  return area === "export" && parsed.values.out === undefined;
}

/** How npm started the process (server/env.ts npmLaunch); both undefined when it did not. */
export type NpmLaunch = { event: string | undefined; loglevel: string | undefined };

/** Whether a script runner (npm run, not npx) printed its banner on this process's standard output. */
function runnerPrintedBanner(launch: NpmLaunch) {
  return launch.event !== undefined && launch.event !== "npx" && launch.loglevel !== "silent";
}

/** Why the command must not run as started, or undefined when its output holds the data alone. */
export function bannerRefusal(
  argv: readonly string[],
  launch: NpmLaunch,
  stdoutIsTerminal: boolean,
): string | undefined {
  if (stdoutIsTerminal || !runnerPrintedBanner(launch) || !writesDataToStandardOutput(argv)) return undefined;
  return [
    `npm run has written its banner on standard output ahead of this command's data, so the output would not be the data alone; nothing was exported.`,
    `Run it as: npx clinro ${argv.join(" ")}`,
    `(or: npm run --silent clinro -- ${argv.join(" ")})`,
  ].join("\n");
}

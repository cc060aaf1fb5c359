/**
 * `npm run clinro -- ...`: the administration command; see run-cli.ts for what it does.
 */
import { runCli } from "./run-cli.ts";

const code = await runCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exitCode = code;

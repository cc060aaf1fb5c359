/**
 * `npx clinro ...` (bin/clinro.js) or `npm run clinro -- ...`: the administration command; see
 * run-cli.ts for what it does. A data command started so that npm's banner went into its output
 * refuses first (npm-banner.ts).
 */
import { npmLaunch } from "../env.ts";
import { bannerRefusal } from "./npm-banner.ts";
import { runCli } from "./run-cli.ts";

const argv = process.argv.slice(2);
const refusal = bannerRefusal(argv, npmLaunch(), process.stdout.isTTY === true);
if (refusal !== undefined) {
  console.error(refusal);
  process.exitCode = 2;
} else {
  process.exitCode = await runCli(argv, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}

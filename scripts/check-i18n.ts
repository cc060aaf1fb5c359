/**
 * `npm run i18n:check`: fails when the message catalogs are not what `npm run i18n:extract`
 * would write (a message added, changed or removed in the code without an extract), or when a
 * message lacks its Spanish translation. Never rewrites the catalogs: the extract goes to a
 * temporary copy (LINGUI_CATALOG_DIR, read by lingui.config.ts), which is compared with them.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const CATALOGS = path.resolve("src/i18n/locales");
const LINGUI = path.resolve("node_modules/.bin/lingui");

const copy = mkdtempSync(path.join(tmpdir(), "clinro-i18n-"));
let failed = false;
try {
  cpSync(CATALOGS, copy, { recursive: true, filter: (source) => !/messages\.(js|ts)$/.test(source) });
  execFileSync(LINGUI, ["extract", "--clean", "--overwrite"], {
    env: { ...process.env, LINGUI_CATALOG_DIR: copy },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const locale of readdirSync(CATALOGS)) {
    const file = path.join(locale, "messages.po");
    if (readFileSync(path.join(CATALOGS, file), "utf8") !== readFileSync(path.join(copy, file), "utf8")) {
      console.error(`${file} is out of date: run \`npm run i18n:extract\` and translate what it adds.`);
      failed = true;
    }
  }
  // --strict: a message without its Spanish fails.
  execFileSync(LINGUI, ["compile", "--strict"], {
    env: { ...process.env, LINGUI_CATALOG_DIR: copy },
    stdio: "inherit",
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  rmSync(copy, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log("Message catalogs are up to date and translated.");

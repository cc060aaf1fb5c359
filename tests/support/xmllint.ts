/**
 * Validates XML against the official CDISC ODM 1.3.2 schema with xmllint (Debian's
 * libxml2-utils). The schema is not in the repository (CDISC publishes it; we read it from
 * ../shared/standards beside the checkout). On a fresh machine without the schema or xmllint the
 * tests that need them are skipped, and say so in their names; under CI (process.env.CI) a
 * missing one fails instead, since .ci/run installs both.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** ODM_SCHEMA_PATH names it elsewhere (.ci/run sets it for a clone made away from ../shared). */
export const ODM_SCHEMA_PATH =
  process.env["ODM_SCHEMA_PATH"] ||
  path.resolve(repoRoot, "../shared/standards/cdisc-odm-1.3.2/ODM1-3-2.xsd");

function xmllintFound(): boolean {
  try {
    execFileSync("xmllint", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const missing = [
  ...(xmllintFound() ? [] : ["xmllint (apt-get install libxml2-utils)"]),
  ...(existsSync(ODM_SCHEMA_PATH) ? [] : [`the ODM 1.3.2 schema at ${ODM_SCHEMA_PATH}`]),
];

/** Whether the ODM schema checks can run here. Under CI a missing tool or schema is an error. */
export const odmSchemaCheckAvailable = missing.length === 0;

if (!odmSchemaCheckAvailable && process.env["CI"]) {
  throw new Error(`CI must run the ODM schema checks, but this machine lacks ${missing.join(" and ")}`);
}

/** Appended to the name of every test that needs the schema check, so a skip says why. */
export const odmSchemaTestNote = odmSchemaCheckAvailable
  ? "(checked by xmllint against the ODM 1.3.2 schema)"
  : `(skipped: xmllint or the ODM schema is not on this machine: missing ${missing.join(" and ")})`;

export type SchemaCheck = { valid: true } | { valid: false; errors: string };

/** Validates a document against the ODM 1.3.2 schema; the errors are xmllint's own words. */
export function validateOdm(xml: string): SchemaCheck {
  const result = spawnSync("xmllint", ["--noout", "--nonet", "--schema", ODM_SCHEMA_PATH, "-"], {
    input: xml,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return result.status === 0 ? { valid: true } : { valid: false, errors: result.stderr };
}

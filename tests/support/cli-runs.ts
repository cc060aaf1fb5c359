/**
 * Runs of the `clinro` command inside the API tests, on the harness's database, with what it
 * printed caught; `clinro instrument import --from FORMAT FILE --study ID` in particular, and
 * the instrument and definition versions such an import stores, read back; and a temporary
 * folder for the files the runs are given.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { runCli } from "../../server/cli/run-cli.ts";
import { instrumentDefinitions, instruments } from "../../server/db/schema.ts";
import type { ApiHarness } from "./api-harness.ts";

/** A finished run: its exit code, and its standard output and error, lines joined by newlines. */
export type CliRun = { code: number; out: string; err: string };

/** Runs `clinro ARGS` on the harness's database. */
export async function runClinro(api: ApiHarness, args: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (line: string) => out.push(line), err: (line: string) => err.push(line) },
    { database: api.handle },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

export type InstrumentImport = {
  /** The --from format: fhir, redcap, odm (or one that does not exist, to see it refused). */
  from: string;
  file: string;
  studyId: number;
  /** Options after --study, e.g. ["--slug", "phq-9"]. */
  options?: string[];
};

/** Runs `clinro instrument import --from FROM FILE --study ID [OPTIONS]`. */
export function importInstrument(api: ApiHarness, run: InstrumentImport): Promise<CliRun> {
  return runClinro(api, [
    "instrument",
    "import",
    "--from",
    run.from,
    run.file,
    "--study",
    String(run.studyId),
    ...(run.options ?? []),
  ]);
}

/** The study's one instrument with that slug (the test fails when there is none or more). */
export async function importedInstrument(api: ApiHarness, studyId: number, slug: string) {
  const rows = await api.db
    .select()
    .from(instruments)
    .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The instrument's definition versions, the first first. */
export function definitionVersions(api: ApiHarness, instrumentId: number) {
  return api.db
    .select()
    .from(instrumentDefinitions)
    .where(eq(instrumentDefinitions.instrumentId, instrumentId))
    .orderBy(instrumentDefinitions.versionNumber);
}

/**
 * A temporary folder made before the tests of the file (or describe block) that calls this and
 * removed after them; answers the path a file of the given name has in it.
 */
export function temporaryFolder(prefix: string): (name: string) => string {
  let folder = "";
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return (name) => path.join(folder, name);
}

/**
 * The versions of an instrument's survey definition: the definition call serves the latest, a
 * submission is checked against the one it names, and imports (the CLI, the demo seed) add the
 * next one. Owns instrument_definitions; parsing and validating a definition is the engine's
 * (core/survey-engine/validate-definition.ts).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";
import type { Database, Transaction } from "../db/client.ts";
import { perDatabaseCache } from "../db/per-database-cache.ts";
import { instrumentDefinitions, type DefinitionServedAs } from "../db/schema.ts";

type Reader = Database | Transaction;
export type DefinitionRow = typeof instrumentDefinitions.$inferSelect;

export async function definitionVersion(
  db: Reader,
  instrumentId: number,
  versionNumber: number,
): Promise<DefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(instrumentDefinitions)
    .where(
      and(
        eq(instrumentDefinitions.instrumentId, instrumentId),
        eq(instrumentDefinitions.versionNumber, versionNumber),
      ),
    );
  return row;
}

/**
 * Adds the next version (1 for the first) and answers its number. Two imports racing for one
 * instrument cannot both get a number: the unique (instrument_id, version_number) refuses the
 * second, which fails instead of silently overwriting.
 */
export async function addDefinitionVersion(
  tx: Transaction,
  instrumentId: number,
  definition: Record<string, unknown>,
  servedAs: DefinitionServedAs,
): Promise<number> {
  const [current] = await tx
    .select({ latest: sql<number | null>`max(${instrumentDefinitions.versionNumber})` })
    .from(instrumentDefinitions)
    .where(eq(instrumentDefinitions.instrumentId, instrumentId));
  const versionNumber = (current?.latest ?? 0) + 1;
  await tx.insert(instrumentDefinitions).values({ instrumentId, versionNumber, definition, servedAs });
  return versionNumber;
}

/**
 * The definition as the call serves it: the stored JSON with `version` set to the row's
 * version_number (what a submission names back) and the instrument's id.
 */
export function servedDefinition(row: DefinitionRow) {
  return { ...row.definition, version: row.versionNumber, instrument_id: row.instrumentId };
}

/** The file name inside a zipped definition: `<slug>.json`. */
export function definitionFileName(slug: string) {
  return `${slug}.json`;
}

/** A zip holding one file, `<slug>.json`, with the served definition. */
export function zipDefinition(slug: string, served: Record<string, unknown>): Uint8Array {
  return zipSync({ [definitionFileName(slug)]: strToU8(JSON.stringify(served)) });
}

/** Parsed definitions by row id: rows never change, so a parse holds for the process's life. */
const parsedDefinitions = perDatabaseCache<number, SurveyDefinition>(200);

/**
 * The served definition of a row as the engine parses and checks it (defaults filled in), or
 * undefined when it does not pass: rows never change, so a pass holds for the process's life.
 * db is the database the row was read from (the cache's key), also when read in a transaction.
 */
export function checkedDefinition(db: Database, row: DefinitionRow): SurveyDefinition | undefined {
  const cached = parsedDefinitions.get(db, row.id);
  if (cached) return cached;
  const result = parseSurveyDefinition(servedDefinition(row));
  if (!result.ok) return undefined;
  parsedDefinitions.set(db, row.id, result.definition);
  return result.definition;
}

/** What the definition call serves of an instrument's latest version. */
export type LatestDefinition = {
  /** The version's row: what a cache of the answer is keyed by. */
  rowId: number;
  /** As the engine checked it (defaults filled in), or as stored when it did not pass. */
  definition: Record<string, unknown>;
  /** Whether it passed the engine's checks. */
  checked: boolean;
  servedAs: DefinitionServedAs;
};

/**
 * The latest version of an instrument's definition, as the definition call serves it. The row's
 * definition is read only when its parse is not cached: reading 1,000 questions' JSON out of the
 * database costs about 9 ms on PGlite, nine tenths of the call, and a first visit's app files
 * wait behind it on the same event loop.
 */
export async function latestServedDefinition(
  db: Database,
  instrumentId: number,
): Promise<LatestDefinition | undefined> {
  const [latest] = await db
    .select({ id: instrumentDefinitions.id, servedAs: instrumentDefinitions.servedAs })
    .from(instrumentDefinitions)
    .where(eq(instrumentDefinitions.instrumentId, instrumentId))
    .orderBy(desc(instrumentDefinitions.versionNumber))
    .limit(1);
  if (!latest) return undefined;
  const cached = parsedDefinitions.get(db, latest.id);
  if (cached) return { rowId: latest.id, definition: cached, checked: true, servedAs: latest.servedAs };
  const [row] = await db.select().from(instrumentDefinitions).where(eq(instrumentDefinitions.id, latest.id));
  // Rows are never deleted; one gone since the line above is as if the instrument had none.
  if (!row) return undefined;
  const checked = checkedDefinition(db, row);
  return checked
    ? { rowId: row.id, definition: checked, checked: true, servedAs: row.servedAs }
    : { rowId: row.id, definition: servedDefinition(row), checked: false, servedAs: row.servedAs };
}

/**
 * The served definition of a row, parsed by the engine (defaults filled in), to check a
 * submission against. Stored rows were validated when imported; one that no longer parses (an
 * engine change) is a server fault, not the client's.
 */
export function parsedDefinition(db: Database, row: DefinitionRow): SurveyDefinition {
  const checked = checkedDefinition(db, row);
  if (checked) return checked;
  const result = parseSurveyDefinition(servedDefinition(row));
  const problems = result.ok ? "" : result.problems.map(formatDefinitionProblem).join("; ");
  throw new Error(`Stored definition ${row.id} (instrument ${row.instrumentId}) does not parse: ${problems}`);
}

/**
 * The versions of an instrument's survey definition: the definition call serves the latest, a
 * submission is checked against the one it names, and imports (the CLI, the demo seed) add the
 * next one. Owns instrument_definitions; parsing and validating a definition is the engine's
 * (src/survey/engine/validate-definition.ts).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import type { SurveyDefinition } from "../../src/survey/engine/definition.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../src/survey/engine/validate-definition.ts";
import type { Database } from "../db/client.ts";
import { instrumentDefinitions, type DefinitionServedAs } from "../db/schema.ts";
import type { Transaction } from "../idempotency/idempotent-write.ts";

type Reader = Database | Transaction;
export type DefinitionRow = typeof instrumentDefinitions.$inferSelect;

export async function latestDefinition(db: Reader, instrumentId: number): Promise<DefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(instrumentDefinitions)
    .where(eq(instrumentDefinitions.instrumentId, instrumentId))
    .orderBy(desc(instrumentDefinitions.versionNumber))
    .limit(1);
  return row;
}

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
const parsedDefinitions = new Map<number, SurveyDefinition>();
const PARSED_DEFINITIONS_MAX = 200;

/**
 * The served definition of a row as the engine parses and checks it (defaults filled in), or
 * undefined when it does not pass: rows never change, so a pass holds for the process's life.
 */
export function checkedDefinition(row: DefinitionRow): SurveyDefinition | undefined {
  const cached = parsedDefinitions.get(row.id);
  if (cached) return cached;
  const result = parseSurveyDefinition(servedDefinition(row));
  if (!result.ok) return undefined;
  if (parsedDefinitions.size >= PARSED_DEFINITIONS_MAX) parsedDefinitions.clear();
  parsedDefinitions.set(row.id, result.definition);
  return result.definition;
}

/**
 * The served definition of a row, parsed by the engine (defaults filled in), to check a
 * submission against. Stored rows were validated when imported; one that no longer parses (an
 * engine change) is a server fault, not the client's.
 */
export function parsedDefinition(row: DefinitionRow): SurveyDefinition {
  const checked = checkedDefinition(row);
  if (checked) return checked;
  const result = parseSurveyDefinition(servedDefinition(row));
  const problems = result.ok ? "" : result.problems.map(formatDefinitionProblem).join("; ");
  throw new Error(`Stored definition ${row.id} (instrument ${row.instrumentId}) does not parse: ${problems}`);
}

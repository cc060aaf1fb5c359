/**
 * The definition call's answer bodies, kept per database by what they are made of: the
 * version's row, how it is served, and the instrument's slug, name and permissions. A checked
 * version answers the same bytes at every call, so it is checked against the call's answer schema,
 * stringified (or zipped) and gzipped once, not at every first visit: for 1,000 questions that was
 * 5 to 10 ms of the event loop per call, during which the app's own files, sent by the same
 * process, waited. A definition that did not pass the engine's checks is not kept: it goes through
 * the serializer's check at every call, as every other answer does.
 */
import { gzipSync } from "node:zlib";
import * as z from "zod/v4/core";
import { definitionResponse } from "../../core/contracts/instrument-schemas.ts";
import type { Database } from "../db/client.ts";
import { perDatabaseCache } from "../db/per-database-cache.ts";
import type { DefinitionServedAs } from "../db/schema.ts";
import { zipDefinition } from "./instrument-definitions.ts";

/** A checked definition's answer: the zip, or the JSON text and, once asked for, its gzip. */
export type DefinitionAnswer =
  { kind: "zip"; body: Buffer } | { kind: "json"; text: string; gzipped: () => Buffer };

const answers = perDatabaseCache<string, DefinitionAnswer>(200);

function jsonAnswer(text: string): DefinitionAnswer {
  let gzipped: Buffer | undefined;
  // Once, at the best level: 335 KB of JSON took 3-8 ms to compress at every call.
  return { kind: "json", text, gzipped: () => (gzipped ??= gzipSync(text, { level: 9 })) };
}

export type DefinitionAnswerParts = {
  rowId: number;
  servedAs: DefinitionServedAs;
  slug: string;
  displayName: string;
  permissions: readonly string[];
  /** The definition as served, display name, permissions and mark included. */
  served: Record<string, unknown>;
};

/**
 * The answer of a checked definition: its JSON text, or the zip holding it. Undefined
 * when the served definition breaks the call's answer schema (the serializer then answers the
 * 500 that any broken answer gets).
 */
export function checkedDefinitionAnswer(
  db: Database,
  parts: DefinitionAnswerParts,
): DefinitionAnswer | undefined {
  const key = JSON.stringify([parts.rowId, parts.servedAs, parts.slug, parts.displayName, parts.permissions]);
  const kept = answers.get(db, key);
  if (kept !== undefined) return kept;
  const checked = z.safeParse(definitionResponse, parts.served);
  if (!checked.success) return undefined;
  const answer: DefinitionAnswer =
    parts.servedAs === "zip"
      ? { kind: "zip", body: Buffer.from(zipDefinition(parts.slug, checked.data)) }
      : jsonAnswer(JSON.stringify(checked.data));
  answers.set(db, key, answer);
  return answer;
}

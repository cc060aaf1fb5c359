/**
 * A statement read at every call is sent prepared so that PostgreSQL may plan it once per
 * connection and keep that generic plan (server/db/client.ts: preparedRows). A generic plan knows
 * only what the statement's text says: a partial index is usable only when the text's constants
 * imply the index's predicate. The consents list's count of unfinished statuses once named the
 * finished statuses as parameters; its generic plan could not use the unfinished-status index,
 * so PostgreSQL planned it anew at every call.
 *
 * Each test prepares the route's own statement text, asks for its generic plan (seq scans off, so
 * that the demo's small tables answer as the sponsor's large ones do) and reads which indexes it
 * uses.
 */
import { Placeholder, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { consentListStatements } from "../../server/routes/consents/list-my-consents.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

/** A value as an SQL literal: the test's own numbers and text, quoted. */
function literal(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no literal for ${String(value)}`);
}

/** The generic plan of a statement prepared from `query` with the named values, as JSON text. */
async function genericPlan(
  db: Database,
  query: { sql: string; params: unknown[] },
  values: Record<string, unknown>,
): Promise<string> {
  const args = query.params.map((param) => {
    if (!(param instanceof Placeholder)) return literal(param);
    if (!(param.name in values)) throw new Error(`no value for ${param.name}`);
    return literal(values[param.name]);
  });
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql.raw(`prepare plan_under_test as ${query.sql}`));
    try {
      const result = (await tx.execute(
        sql.raw(`explain (format json) execute plan_under_test(${args.join(", ")})`),
      )) as unknown as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
      const rows = Array.isArray(result) ? result : result.rows;
      return JSON.stringify(rows);
    } finally {
      await tx.execute(sql`deallocate plan_under_test`);
    }
  });
}

describeOnEachDatabase("statements planned once per connection", (api) => {
  it("the consents list's generic plan counts the unfinished statuses through their partial index", async () => {
    for (const shape of ["all all", "study all", "all site", "study site"]) {
      const { query } = consentListStatements(api.db, shape);
      const plan = await genericPlan(api.db, query, {
        userId: 1,
        tokenVersion: 0,
        jti: "00000000-0000-4000-8000-000000000000",
        studyId: 101,
        siteId: 1011,
      });
      expect(plan, shape).toContain("consent_participants_unfinished_idx");
    }
  });
});

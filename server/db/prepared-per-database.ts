/**
 * A query prepared once per database and kept. Building a query with drizzle costs about as much
 * CPU as PostgreSQL spends on a selective read, and the reads made at every tap (the
 * session check, a participant's access, their lists) should not pay it each time. `shape` tells
 * apart the forms of one query that differ in their SQL (the search's word shapes); most have one.
 * Kept per database: the API tests run PGlite and PostgreSQL side by side in one process.
 */
import type { Database } from "./client.ts";

export function preparedPerDatabase<Prepared, Db extends object = Database>(
  prepare: (db: Db, shape: string) => Prepared,
) {
  const byDatabase = new WeakMap<Db, Map<string, Prepared>>();
  return (db: Db, shape = ""): Prepared => {
    let byShape = byDatabase.get(db);
    if (!byShape) {
      byShape = new Map();
      byDatabase.set(db, byShape);
    }
    let prepared = byShape.get(shape);
    if (!prepared) {
      prepared = prepare(db, shape);
      byShape.set(shape, prepared);
    }
    return prepared;
  };
}

/**
 * A fingerprint of everything a request could change: the row count of every table, and of the
 * audit trail's data changes (insert, update, delete: an UPDATE changes no count, but its audit
 * row does). Refusals the trail records as they happen (forbidden, a failed sign-in) are left
 * out: recording them is what a refused request is meant to do.
 */
import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Database } from "../../server/db/client.ts";

const rowsOf = <Row extends Record<string, unknown>>(db: Database, statement: SQL) =>
  executeRows<Row>(db, statement);

export async function rowCounts(db: Database): Promise<Record<string, number>> {
  const tables = await rowsOf<{ tablename: string }>(
    db,
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    if (tablename === "audit_log") continue;
    const [row] = await rowsOf<{ count: number }>(
      db,
      sql`select count(*)::int as count from ${sql.identifier(tablename)}`,
    );
    counts[tablename] = row?.count ?? -1;
  }
  const [changes] = await rowsOf<{ count: number }>(
    db,
    sql`select count(*)::int as count from audit_log where action in ('insert', 'update', 'delete')`,
  );
  counts["audit_log (data changes)"] = changes?.count ?? -1;
  return counts;
}

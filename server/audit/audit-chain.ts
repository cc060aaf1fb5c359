/**
 * Reading the audit trail back: checking its hash chain and writing it as CSV.
 *
 * The chain (migration 0008): row n has id n, prev_hash = row n-1's hash, and
 * hash = clinro_audit_row_hash(prev_hash, row), the SHA-256 of the previous hash and the row's
 * canonical content. The check recomputes each hash with that same SQL function, so the
 * trigger and the check cannot disagree on how a row is serialised. A changed row, a removed
 * row (a gap in the ids) and a row inserted out of the chain all show as the first broken link.
 * (Someone able to rewrite every later hash as well could forge the chain; keeping a copy of the
 * last hash elsewhere, e.g. in an export, is what catches that.)
 */
import { once } from "node:events";
import { open } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/client.ts";

const BATCH = 1000;

export type BrokenLink = { id: number; reason: string };
export type ChainReport = { rows: number; lastHash: string; broken?: BrokenLink };

type ChainRow = { id: string | number; prev_hash: string; hash: string; computed: string };

/** Walks the whole chain in id order; stops at the first broken link. */
export async function verifyAuditChain(db: Database): Promise<ChainReport> {
  let expectedId = 1;
  let previousHash = "";
  let rows = 0;
  for (;;) {
    const list = await executeRows<ChainRow>(
      db,
      sql`
      select a.id, a.prev_hash, a.hash, clinro_audit_row_hash(a.prev_hash, a) as computed
      from audit_log a where a.id >= ${expectedId} order by a.id limit ${BATCH}
    `,
    );
    for (const row of list) {
      const id = Number(row.id);
      const broken = (reason: string): ChainReport => ({
        rows,
        lastHash: previousHash,
        broken: { id, reason },
      });
      if (id !== expectedId) {
        return broken(
          expectedId === 1
            ? `the chain starts at row ${id}: rows 1 to ${id - 1} are missing`
            : `rows ${expectedId} to ${id - 1} are missing (the chain jumps from row ${expectedId - 1} to row ${id})`,
        );
      }
      if (row.prev_hash !== previousHash) {
        return broken(
          `row ${id} does not point at row ${id - 1} (its prev_hash is not row ${id - 1}'s hash)`,
        );
      }
      if (row.computed !== row.hash) {
        return broken(`row ${id} was changed after it was written (its content does not match its hash)`);
      }
      previousHash = row.hash;
      expectedId += 1;
      rows += 1;
    }
    if (list.length < BATCH) return { rows, lastHash: previousHash };
  }
}

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "actor_user_id",
  "action",
  "table_name",
  "row_key",
  "old_values",
  "new_values",
  "details",
  "prev_hash",
  "hash",
] as const;

/** One CSV field, RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string | null): string {
  if (value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

type ExportRow = Record<(typeof AUDIT_CSV_COLUMNS)[number], string | null>;

/**
 * Writes the whole audit trail to `file` as CSV (header line, CRLF line ends, UTF-8), in chain
 * order; the JSON columns as JSON text, the time as ISO 8601 UTC. Answers the number of rows.
 */
export async function exportAuditCsv(db: Database, file: string): Promise<number> {
  // "wx": an existing file is an error, never overwritten (it may be an earlier export).
  const handle = await open(file, "wx", 0o600);
  const out = handle.createWriteStream({ encoding: "utf8" });
  const write = async (line: string) => {
    if (!out.write(`${line}\r\n`)) await once(out, "drain");
  };
  let rows = 0;
  try {
    await write(AUDIT_CSV_COLUMNS.join(","));
    let after = 0;
    for (;;) {
      const list = await executeRows<ExportRow>(
        db,
        sql`
        -- "order by a.id", not "id": that would be the text column below, in text order.
        select a.id::text as id,
          to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
          actor_user_id::text as actor_user_id, action, table_name,
          row_key::text as row_key, old_values::text as old_values,
          new_values::text as new_values, details::text as details, prev_hash, hash
        from audit_log a where a.id > ${after} order by a.id limit ${BATCH}
      `,
      );
      for (const row of list) {
        await write(AUDIT_CSV_COLUMNS.map((column) => csvField(row[column])).join(","));
        after = Number(row.id);
        rows += 1;
      }
      if (list.length < BATCH) break;
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  return rows;
}

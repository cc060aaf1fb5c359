/**
 * Checkpoints of the audit chain's head (migration 0020): the last row's id (= the row count,
 * the rows being numbered 1 to n) and its hash, at a time, recorded by a backup, an audit export,
 * an intact `audit verify` and every server start. A chain whose newest rows were removed still
 * links row to row; a checkpoint that names a row the chain no longer holds, or holds with
 * another hash, shows the cut and says which rows are gone.
 *
 * Where the server runs under its own database role (docs/operations.md), the table belongs to
 * the migrations' role: the server's role adds checkpoints only through the SECURITY DEFINER
 * function, which records the real head, and can remove none. With one role (PGlite, or one
 * PostgreSQL role for everything) whoever can cut the chain could remove the checkpoints too;
 * the head written into every backup and printed by every export is the copy kept elsewhere.
 */
import { sql } from "drizzle-orm";
import { executeRows, type Database } from "../db/client.ts";

export type AuditHead = { lastId: number; lastHash: string };
export type AuditCheckpoint = AuditHead & { id: number; at: string; source: string };

type CheckpointRow = {
  id: string | number;
  at: string;
  last_id: string | number;
  last_hash: string;
  source: string;
};

const checkpointOf = (row: CheckpointRow): AuditCheckpoint => ({
  id: Number(row.id),
  at: row.at,
  lastId: Number(row.last_id),
  lastHash: row.last_hash,
  source: row.source,
});

export async function recordAuditCheckpoint(db: Database, source: string): Promise<AuditCheckpoint> {
  const [row] = await executeRows<CheckpointRow>(
    db,
    sql`select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at, last_id, last_hash, source
        from clinro_audit_checkpoint(${source})`,
  );
  return checkpointOf(row!);
}

/** What a checkpoint says of a chain that verifies up to `rows` rows ending at `lastHash`. */
export type CutTail = { checkpoint: AuditCheckpoint; reason: string };

/**
 * The checkpoint reaching furthest whose row is gone or changed, said in words; undefined when
 * every checkpoint's row is in the chain with the hash it recorded.
 */
export async function findCutTail(db: Database, chainRows: number): Promise<CutTail | undefined> {
  const [row] = await executeRows<CheckpointRow & { found_hash: string | null }>(
    db,
    sql`select c.id, to_char(c.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
          c.last_id, c.last_hash, c.source, a.hash as found_hash
        from audit_checkpoints c left join audit_log a on a.id = c.last_id
        where c.last_id > 0 and a.hash is distinct from c.last_hash
        order by c.last_id desc, c.id desc limit 1`,
  );
  if (!row) return undefined;
  const checkpoint = checkpointOf(row);
  const recorded = `checkpoint ${checkpoint.id} (${checkpoint.source}, ${checkpoint.at}) recorded row ${checkpoint.lastId} with hash ${checkpoint.lastHash}`;
  if (row.found_hash === null) {
    const missing =
      chainRows + 1 === checkpoint.lastId
        ? `row ${checkpoint.lastId} is missing`
        : `rows ${chainRows + 1} to ${checkpoint.lastId} are missing`;
    return {
      checkpoint,
      reason: `the chain's tail was cut: ${missing}; ${recorded}, the chain ends at row ${chainRows}`,
    };
  }
  return {
    checkpoint,
    reason: `row ${checkpoint.lastId} is not the row that was checkpointed: rows up to it were removed and others written after the cut; ${recorded}`,
  };
}

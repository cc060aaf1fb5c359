/**
 * The audit chain's head checkpointed (server/audit/audit-checkpoints.ts): a tail cut behind the
 * triggers' back leaves a chain that links row to row, and `clinro audit verify` must still say
 * that rows are gone, and which. Here with one database role, as PGlite and the default
 * PostgreSQL set-up run (database-roles.test.ts has the two roles).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { recordAuditEvent } from "../../server/audit/audit-trail.ts";
import { executeRows, type Database } from "../../server/db/client.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { runClinro } from "../support/cli-runs.ts";

/** Removes the rows after `keep` with the append-only trigger off, as the table's owner can. */
async function cutTail(db: Database, keep: number) {
  const removed = await executeRows<{ row: unknown }>(
    db,
    sql`select to_jsonb(a) as row from audit_log a where id > ${keep} order by id`,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_append_only`);
    await tx.execute(sql`delete from audit_log where id > ${keep}`);
    await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_append_only`);
  });
  return removed.map((entry) => entry.row);
}

/** Puts removed rows back as they were (the next test starts from an intact trail). */
async function putBack(db: Database, keep: number, rows: unknown[]) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_append_only`);
    await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_chain`);
    await tx.execute(sql`delete from audit_log where id > ${keep}`);
    await tx.execute(
      sql`insert into audit_log select * from jsonb_populate_recordset(null::audit_log, ${JSON.stringify(rows)}::jsonb)`,
    );
    await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_append_only`);
    await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_chain`);
  });
}

const lastId = async (db: Database) =>
  Number((await executeRows<{ id: string }>(db, sql`select max(id) as id from audit_log`))[0]!.id);

describeOnEachDatabase("the audit chain's checkpointed head", (api) => {
  it("names the rows of a cut tail that audit verify used to call intact", async () => {
    for (let event = 0; event < 3; event += 1) {
      await recordAuditEvent(api.db, { actorUserId: null, action: "test_event", details: { event } });
    }
    const intact = await runClinro(api, ["audit", "verify"]);
    expect(intact.code).toBe(0);
    const head = await lastId(api.db);
    expect(intact.out).toBe(`audit chain intact: ${head} rows\nlast hash: ${await hashOf(api.db, head)}`);

    const removed = await cutTail(api.db, head - 3);
    const cut = await runClinro(api, ["audit", "verify"]);
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(
      new RegExp(
        `^audit chain broken: the chain's tail was cut: rows ${head - 2} to ${head} are missing; ` +
          `checkpoint \\d+ \\(audit verify, [0-9T:Z-]+\\) recorded row ${head} with hash [0-9a-f]{64}, ` +
          `the chain ends at row ${head - 3}\\n${head - 3} rows verify, but the trail once held more\\.$`,
      ),
    );
    await putBack(api.db, head - 3, removed);
    expect((await runClinro(api, ["audit", "verify"])).code).toBe(0);
  });

  it("sees a tail cut and written again past the checkpoint", async () => {
    const checkpointed = await runClinro(api, ["audit", "verify"]);
    expect(checkpointed.code).toBe(0);
    const head = await lastId(api.db);
    const removed = await cutTail(api.db, head - 2);
    // New rows after the cut: the chain is as long as before, and links row to row.
    for (let event = 0; event < 4; event += 1) {
      await recordAuditEvent(api.db, { actorUserId: null, action: "test_event", details: { after: event } });
    }
    const report = await runClinro(api, ["audit", "verify"]);
    expect(report.code).toBe(1);
    expect(report.err).toMatch(
      new RegExp(
        `^audit chain broken: row ${head} is not the row that was checkpointed: rows up to it were removed`,
      ),
    );
    await putBack(api.db, head - 2, removed);
    expect((await runClinro(api, ["audit", "verify"])).code).toBe(0);
  });

  it("checkpoints with every backup and export, and refuses to change or remove a checkpoint", async () => {
    const before = await checkpointCount(api.db);
    const dir = await mkdtemp(path.join(tmpdir(), "clinro-checkpoints-"));
    try {
      expect((await runClinro(api, ["audit", "export", path.join(dir, "trail.csv")])).code).toBe(0);
      expect((await runClinro(api, ["backup", path.join(dir, "backup.gz")])).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await checkpointCount(api.db)).toBe(before + 2);
    const lastTwo = await executeRows<{ last_id: string | number; last_hash: string; source: string }>(
      api.db,
      sql`select last_id, last_hash, source from audit_checkpoints order by id desc limit 2`,
    );
    const head = await lastId(api.db);
    const headHash = await hashOf(api.db, head);
    expect(lastTwo.map((row) => ({ ...row, last_id: Number(row.last_id) }))).toEqual([
      { last_id: head, last_hash: headHash, source: "backup" },
      { last_id: head, last_hash: headHash, source: "audit export" },
    ]);
    for (const statement of [
      sql`update audit_checkpoints set last_id = 1`,
      sql`delete from audit_checkpoints`,
      sql`truncate audit_checkpoints`,
    ]) {
      await expect(api.db.execute(statement)).rejects.toThrow();
    }
    expect(await checkpointCount(api.db)).toBe(before + 2);
  });
});

async function hashOf(db: Database, id: number) {
  return (await executeRows<{ hash: string }>(db, sql`select hash from audit_log where id = ${id}`))[0]!.hash;
}

async function checkpointCount(db: Database) {
  return Number(
    (await executeRows<{ n: string }>(db, sql`select count(*) as n from audit_checkpoints`))[0]!.n,
  );
}

import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { verifyAuditChain } from "../../server/audit/audit-chain.ts";
import { recordAuditEvent, withAuditActor } from "../../server/audit/audit-trail.ts";
import { executeRows, type Database } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";
import { auditLog, participants, studies, users } from "../../server/db/schema.ts";
import { databaseTargets, describeOnEachDatabase, useApiHarness } from "../support/api-harness.ts";

type Row = Record<string, unknown>;

const query = (db: Database, statement: ReturnType<typeof sql>) => executeRows<Row>(db, statement);

/** The database's own message (drizzle wraps it in "Failed query: ..."). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ""}`;
  }
  throw new Error("The statement was not refused");
}

const lastAuditId = async (db: Database) => {
  const [row] = await db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
};

/** Runs `fn` with the append-only trigger off, as a superuser tampering with the table could. */
function asTamperer(
  db: Database,
  fn: (tx: Parameters<Parameters<Database["transaction"]>[0]>[0]) => Promise<void>,
) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_append_only`);
    await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_chain`);
    await fn(tx);
    await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_append_only`);
    await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_chain`);
  });
}

/**
 * The visit signalling's transport state (peer heartbeats, offers in flight): not records a
 * person made, left out of the audit trail on purpose (0012_visits_audit.sql says why).
 */
const SIGNALLING_TRANSPORT_TABLES = ["visit_room_peers", "visit_signal_spill"];

const applicationTables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table).name)
  .filter((name) => name !== "audit_log" && !SIGNALLING_TRANSPORT_TABLES.includes(name));

describeOnEachDatabase("the audit trail", (api) => {
  it("has an enabled audit trigger on every table of schema.ts (migrations of new tables must call clinro_attach_audit)", async () => {
    expect(applicationTables).toContain("users");
    expect(applicationTables.length).toBeGreaterThanOrEqual(17);
    const attached = await query(
      api.db,
      sql`select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where t.tgname = 'clinro_audit' and t.tgenabled <> 'D'`,
    );
    const names = new Set(attached.map((row) => row.name));
    expect(applicationTables.filter((table) => !names.has(table))).toEqual([]);
    expect(names.has("audit_log")).toBe(false);
  });

  it("records a write through the app with its actor, and a sign-in's update with old and new values, never the password hash", async () => {
    const [coordinator] = await api.db
      .select({ id: users.id, lastLogin: users.lastLogin })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const before = await lastAuditId(api.db);
    const token = await api.signIn("coordinator@demo.test");

    const [signInUpdate] = await api.db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.id, before), eq(auditLog.tableName, "users"), eq(auditLog.action, "update")));
    expect(signInUpdate).toMatchObject({ actorUserId: coordinator!.id, rowKey: { id: coordinator!.id } });
    expect(signInUpdate!.oldValues).toMatchObject({ username: "coordinator@demo.test" });
    expect(signInUpdate!.newValues).toMatchObject({ username: "coordinator@demo.test" });
    expect(signInUpdate!.newValues!.last_login).not.toBe(signInUpdate!.oldValues!.last_login);
    expect(signInUpdate!.oldValues).not.toHaveProperty("password_hash");
    expect(signInUpdate!.newValues).not.toHaveProperty("password_hash");
    expect(Date.now() - signInUpdate!.at.getTime()).toBeLessThan(60_000);

    const [participant] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.siteId, 1011))
      .limit(1);
    const afterSignIn = await lastAuditId(api.db);
    const response = await api.request("POST", "/control/participants/me/events?platform=clinro", {
      token,
      headers: { "idempotency-key": randomUUID() },
      body: [
        {
          type: "seen",
          timestamp: "2026-11-22T09:30:00.000+01:00",
          info: { instrument_id: 7 },
          study_id: 101,
          participant: participant!.id,
        },
      ],
    });
    expect(response.statusCode).toBe(200);
    const written = await api.db.select().from(auditLog).where(gt(auditLog.id, afterSignIn));
    const eventInsert = written.find((row) => row.tableName === "participant_events");
    expect(eventInsert).toMatchObject({
      action: "insert",
      actorUserId: coordinator!.id,
      oldValues: null,
      newValues: { type: "seen", participant_id: participant!.id, user_id: coordinator!.id },
    });
    expect(written.find((row) => row.tableName === "idempotency_keys")).toMatchObject({
      action: "insert",
      actorUserId: coordinator!.id,
    });
  });

  it("records a profile change and a password change with their user as actor", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const before = await lastAuditId(api.db);

    const profile = await api.request("PATCH", "/control/clinro/users/me", {
      token,
      body: { nickname: "Auditable" },
    });
    expect(profile.statusCode).toBe(200);
    const changed = await api.request("POST", "/control/change_password", {
      token,
      body: { old_password: user.password, new_password: "Another-Pass-42!" },
    });
    expect(changed.statusCode).toBe(200);

    const rows = await api.db
      .select({ actor: auditLog.actorUserId, newValues: auditLog.newValues, details: auditLog.details })
      .from(auditLog)
      .where(and(gt(auditLog.id, before), eq(auditLog.tableName, "users"), eq(auditLog.action, "update")));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.actor === user.id)).toBe(true);
    expect(rows.some((row) => (row.newValues as Row | null)?.nickname === "Auditable")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain("Another-Pass-42!");
  });

  it("records deletes with the old values and an update of a redacted column by name only", async () => {
    const user = await api.createUser();
    const before = await lastAuditId(api.db);
    await withAuditActor(api.db, user.id, async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash: "$argon2id$changed", tokenVersion: 1 })
        .where(eq(users.id, user.id));
      await tx.delete(users).where(eq(users.id, user.id));
    });
    const rows = await api.db.select().from(auditLog).where(gt(auditLog.id, before)).orderBy(auditLog.id);
    const update = rows.find((row) => row.tableName === "users" && row.action === "update");
    expect(update).toMatchObject({
      actorUserId: user.id,
      oldValues: { token_version: 0 },
      newValues: { token_version: 1 },
      details: { redacted_changed: ["password_hash"] },
    });
    expect(JSON.stringify(rows)).not.toContain("$argon2id$changed");
    const removed = rows.find((row) => row.tableName === "users" && row.action === "delete");
    expect(removed).toMatchObject({
      actorUserId: user.id,
      newValues: null,
      oldValues: { username: user.username },
    });
    // The cascade's deletes (study and site permissions) are recorded too, under the same actor.
    expect(
      rows.filter((row) => row.action === "delete" && row.tableName === "site_permissions").length,
    ).toBeGreaterThan(0);
  });

  it("refuses UPDATE, DELETE and TRUNCATE of audit rows in the database itself", async () => {
    await recordAuditEvent(api.db, { actorUserId: null, action: "test_event" });
    const count = async () => (await query(api.db, sql`select count(*)::int as n from audit_log`))[0]!.n;
    const before = await count();
    expect(await refusal(api.db.execute(sql`update audit_log set action = 'changed'`))).toMatch(
      /audit_log is append-only: UPDATE is refused/,
    );
    expect(await refusal(api.db.execute(sql`delete from audit_log where action = 'test_event'`))).toMatch(
      /audit_log is append-only: DELETE is refused/,
    );
    expect(await refusal(api.db.execute(sql`truncate audit_log`))).toMatch(
      /audit_log is append-only: TRUNCATE is refused/,
    );
    expect(await count()).toBe(before);
    expect(
      (await query(api.db, sql`select count(*)::int as n from audit_log where action = 'changed'`))[0]!.n,
    ).toBe(0);
  });

  it("audits a sign-in and a failed sign-in", async () => {
    const before = await lastAuditId(api.db);
    const failed = await api.login("coordinator@demo.test", "not-the-password", {
      remoteAddress: "10.9.8.7",
    });
    expect(failed.statusCode).toBe(400);
    const unknown = await api.login("nobody@demo.test", "whatever-it-is", { remoteAddress: "10.9.8.7" });
    expect(unknown.statusCode).toBe(400);
    const ok = await api.login("coordinator@demo.test", undefined, { remoteAddress: "10.9.8.6" });
    expect(ok.statusCode).toBe(200);
    const [coordinator] = await api.db
      .select()
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const events = await api.db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.id, before), sql`${auditLog.action} in ('sign_in', 'sign_in_failed')`))
      .orderBy(auditLog.id);
    expect(events.map((row) => [row.action, row.actorUserId, row.details])).toEqual([
      [
        "sign_in_failed",
        null,
        {
          username: "coordinator@demo.test",
          address: "10.9.8.7",
          reason: "wrong_password",
          user_id: coordinator!.id,
        },
      ],
      [
        "sign_in_failed",
        null,
        { username: "nobody@demo.test", address: "10.9.8.7", reason: "unknown_user", user_id: null },
      ],
      ["sign_in", coordinator!.id, { address: "10.9.8.6" }],
    ]);
    expect(JSON.stringify(events)).not.toContain("not-the-password");
  });

  it("audits a refused authorisation (403) with the user and what was asked", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    const token = await api.signIn(user.username);
    const [other] = await api.db
      .select({ id: studies.id })
      .from(studies)
      .where(sql`${studies.id} <> 101`)
      .limit(1);
    const before = await lastAuditId(api.db);
    const response = await api.request("GET", `/control/studies/${other!.id}`, { token });
    expect(response.statusCode).toBe(403);
    const rows = await api.db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.id, before), eq(auditLog.action, "forbidden")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: user.id,
      details: {
        method: "GET",
        path: `/control/studies/${other!.id}`,
        route: "/control/studies/:studyId",
        code: "study_forbidden",
      },
    });
  });

  it("keeps one unforked chain under concurrent writers", async () => {
    const user = await api.createUser();
    await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        index % 2 === 0
          ? recordAuditEvent(api.db, { actorUserId: user.id, action: "test_event", details: { index } })
          : withAuditActor(api.db, user.id, (tx) =>
              tx
                .update(users)
                .set({ nickname: `n${index}` })
                .where(eq(users.id, user.id)),
            ),
      ),
    );
    const report = await verifyAuditChain(api.db);
    expect(report.broken).toBeUndefined();
    expect(report.rows).toBe(await lastAuditId(api.db));
  });

  it("verifies the chain, and reports a row changed or removed behind the triggers' back", async () => {
    const intact = await verifyAuditChain(api.db);
    expect(intact.broken).toBeUndefined();
    expect(intact.rows).toBeGreaterThan(10);

    const target = Math.floor(intact.rows / 2);
    const [original] = await query(
      api.db,
      sql`select to_jsonb(a) as row, details::text as details from audit_log a where id = ${target}`,
    );
    await asTamperer(api.db, async (tx) => {
      await tx.execute(sql`update audit_log set details = '{"tampered": true}' where id = ${target}`);
    });
    expect((await verifyAuditChain(api.db)).broken).toEqual({
      id: target,
      reason: `row ${target} was changed after it was written (its content does not match its hash)`,
    });

    await asTamperer(api.db, async (tx) => {
      await tx.execute(
        sql`update audit_log set details = ${original!.details as string | null}::jsonb where id = ${target}`,
      );
      await tx.execute(sql`delete from audit_log where id = ${target}`);
    });
    expect((await verifyAuditChain(api.db)).broken).toEqual({
      id: target + 1,
      reason: `rows ${target} to ${target} are missing (the chain jumps from row ${target - 1} to row ${target + 1})`,
    });

    // Put the row back as it was: the chain verifies again.
    await asTamperer(api.db, async (tx) => {
      await tx.execute(
        sql`insert into audit_log select * from jsonb_populate_record(null::audit_log, ${JSON.stringify(original!.row)}::jsonb)`,
      );
    });
    const restored = await verifyAuditChain(api.db);
    expect(restored.broken).toBeUndefined();
    expect(restored.rows).toBe(intact.rows);
  });
});

/**
 * Several connections at once: only PostgreSQL has them (PGlite runs one statement at a time).
 * Transaction A changes row X, then row Y; meanwhile a single statement changes row Y. Were the
 * chain's lock taken at each change, A would hold it and wait for Y while the statement held Y
 * and waited for the lock: a deadlock. The audit rows are written at commit, so both finish.
 */
for (const target of databaseTargets.filter((candidate) => candidate.kind === "postgres")) {
  describe.skipIf(!target.available)(`the audit trail under concurrent transactions ${target.title}`, () => {
    const api = useApiHarness(target);

    it("does not deadlock a transaction with a write that waits for the chain", async () => {
      const first = await api.createUser();
      const second = await api.createUser();
      let xUpdated!: () => void;
      const xDone = new Promise<void>((resolve) => (xUpdated = resolve));
      let goOn!: () => void;
      const proceed = new Promise<void>((resolve) => (goOn = resolve));
      const transaction = withAuditActor(api.db, first.id, async (tx) => {
        await tx.update(users).set({ nickname: "A1" }).where(eq(users.id, first.id));
        xUpdated();
        await proceed;
        await tx.update(users).set({ nickname: "A2" }).where(eq(users.id, second.id));
      });
      await xDone;
      const statement = withAuditActor(api.db, second.id, (tx) =>
        tx.update(users).set({ nickname: "B" }).where(eq(users.id, second.id)),
      );
      // The statement finishes (old design: it would wait for the lock held by the transaction).
      await statement;
      goOn();
      await transaction;
      const nicknames = await api.db
        .select({ id: users.id, nickname: users.nickname })
        .from(users)
        .where(sql`${users.id} in (${first.id}, ${second.id})`)
        .orderBy(users.id);
      expect(nicknames.map((row) => row.nickname)).toEqual(["A1", "A2"]);
      const report = await verifyAuditChain(api.db);
      expect(report.broken).toBeUndefined();
      const changes = await api.db
        .select({ actor: auditLog.actorUserId, nickname: sql<string>`${auditLog.newValues} ->> 'nickname'` })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.tableName, "users"),
            sql`${auditLog.newValues} ->> 'nickname' in ('A1', 'A2', 'B')`,
          ),
        )
        .orderBy(auditLog.id);
      expect(changes).toEqual([
        { actor: second.id, nickname: "B" },
        { actor: first.id, nickname: "A1" },
        { actor: first.id, nickname: "A2" },
      ]);
    });
  });
}

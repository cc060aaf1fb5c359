/**
 * The production set-up of docs/operations.md on a PostgreSQL of this test's own: a migrations'
 * role that owns the tables (MIGRATION_DATABASE_URL) and the server's role (DATABASE_URL). The
 * server starts, migrates and seeds as the owner, then serves as its own role, which may add to
 * and read the audit trail but never alter it; a tail cut by whoever owns the table is named by
 * `clinro audit verify` run as the server's role.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../server/cli/run-cli.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { readEnv } from "../../server/env.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { startServer } from "../../server/start.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres.ts";

const OWNER = "clinro_owner";
const SERVER_ROLE = "clinro_app";

describe("two database roles: the migrations' owner and the server's role (private PostgreSQL)", () => {
  let cluster: PrivatePostgres;
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  let asServer: postgres.Sql;
  let asOwner: postgres.Sql;
  let serverHandle: DatabaseHandle;
  const url = (role: string) => cluster.url("clinro").replace("postgres@", `${role}@`);

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const superuser = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    await superuser.unsafe(`create role ${OWNER} login`);
    await superuser.unsafe(`create role ${SERVER_ROLE} login`);
    await superuser.unsafe(`create database clinro owner ${OWNER}`);
    await superuser.end();
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-roles-"));
    server = await startServer(
      readEnv({
        DATABASE_URL: url(SERVER_ROLE),
        MIGRATION_DATABASE_URL: url(OWNER),
        SEED: "demo",
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, "no-app"),
        JWT_SECRET: "database-roles-test-signing-secret-0123456789",
        LOG_LEVEL: "silent",
      }),
    );
    asServer = postgres(url(SERVER_ROLE), { max: 1, onnotice: () => {} });
    asOwner = postgres(url(OWNER), { max: 1, onnotice: () => {} });
    serverHandle = await openDatabase({ kind: "postgres", url: url(SERVER_ROLE), maxConnections: 2 });
  }, 240_000);

  afterAll(async () => {
    await server?.app.close();
    await serverHandle?.close();
    await asServer?.end({ timeout: 1 });
    await asOwner?.end({ timeout: 1 });
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const clinro = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { database: serverHandle },
    );
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  /** The SQLSTATE a statement of the server's role is refused with. */
  const refusal = async (statement: string) => {
    try {
      await asServer.unsafe(statement);
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return "not refused";
  };

  it("serves as its own role, which owns no table, and audits what it does", async () => {
    const owners = await asOwner<{ owner: string }[]>`
      select distinct tableowner as owner from pg_tables where schemaname = 'public'`;
    expect(owners).toEqual([{ owner: OWNER }]);
    const before = await asServer<{ n: number }[]>`select count(*)::int as n from audit_log`;
    const login = await server.app.inject({
      method: "POST",
      url: "/control/clinro/login",
      payload: { username: "coordinator@demo.test", password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const after = await asServer<{ n: number }[]>`select count(*)::int as n from audit_log`;
    expect(after[0]!.n).toBeGreaterThan(before[0]!.n);
  });

  it("refuses the server's role every change to the audit trail and its checkpoints", async () => {
    // 42501: insufficient privilege (not owner, or no such right).
    for (const statement of [
      "alter table audit_log disable trigger clinro_audit_log_append_only",
      "alter table audit_log disable trigger all",
      "alter table audit_log add column note text",
      "drop table audit_log",
      "delete from audit_log where id = (select max(id) from audit_log)",
      "update audit_log set action = 'changed'",
      "truncate audit_log",
      "insert into audit_checkpoints (last_id, last_hash, source) values (1, 'forged', 'me')",
      "update audit_checkpoints set last_id = 1",
      "delete from audit_checkpoints",
      "truncate audit_checkpoints",
      "alter table audit_checkpoints disable trigger all",
    ]) {
      expect([statement, await refusal(statement)]).toEqual([statement, "42501"]);
    }
    // What it may: read the trail, and checkpoint its real head.
    const [head] = await asServer<{ id: string; hash: string }[]>`
      select a.id::text as id, a.hash from audit_log a order by a.id desc limit 1`;
    const [made] = await asServer<{ last_id: string; last_hash: string }[]>`
      select last_id::text, last_hash from clinro_audit_checkpoint('test')`;
    expect(made).toEqual({ last_id: head!.id, last_hash: head!.hash });
  });

  it("runs clinro as the server's role from the environment, the owner migrating first", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { DATABASE_URL: url(SERVER_ROLE), MIGRATION_DATABASE_URL: url(OWNER) });
    try {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(["audit", "verify"], {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out[0]).toMatch(/^audit chain intact: \d+ rows$/);
    } finally {
      process.env = saved;
    }
    // Without the owner's URL, the server's role cannot run the migrator (it owns nothing).
    const saved2 = { ...process.env };
    process.env.DATABASE_URL = url(SERVER_ROLE);
    delete process.env.MIGRATION_DATABASE_URL;
    try {
      await expect(runCli(["audit", "verify"], { out: () => {}, err: () => {} })).rejects.toThrow();
    } finally {
      process.env = saved2;
    }
  });

  it("names a tail the owner cut, in audit verify run as the server's role", async () => {
    const intact = await clinro(["audit", "verify"]);
    expect(intact.code).toBe(0);
    const [{ last } = { last: 0 }] = await asOwner<{ last: number }[]>`
      select max(id)::int as last from audit_log`;
    await asOwner.begin(async (tx) => {
      await tx`alter table audit_log disable trigger clinro_audit_log_append_only`;
      await tx`delete from audit_log where id > ${last - 5}`;
      await tx`alter table audit_log enable trigger clinro_audit_log_append_only`;
    });
    const cut = await clinro(["audit", "verify"]);
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(
      new RegExp(
        `^audit chain broken: the chain's tail was cut: rows ${last - 4} to ${last} are missing; ` +
          `checkpoint \\d+ \\(audit verify, [^)]+\\) recorded row ${last} with hash [0-9a-f]{64}, the chain ends at row ${last - 5}`,
      ),
    );
  });
});

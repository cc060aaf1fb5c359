import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, eq, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withAuditActor } from "../../server/audit/audit-trail.ts";
import { openDatabase, type DatabaseOptions } from "../../server/db/client.ts";
import { auditLog, studies, users } from "../../server/db/schema.ts";
import { UNUSABLE_PASSWORD_HASH } from "../../server/auth/passwords.ts";
import { databaseTargets } from "../support/api-harness.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The command as people run it: its own process, the database from DATA_DIR or DATABASE_URL. */
const cli = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "server/cli/main.ts", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });

const operator = `cli:${os.userInfo().username}@${os.hostname()}`;

describe("who the audit trail says made a command-line write", () => {
  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `the operator's label on every row, the --as user as actor, unknown --as refused (${target.title})`,
      async () => {
        let options: DatabaseOptions;
        let env: Record<string, string>;
        let drop = async () => {};
        if (target.kind === "postgres") {
          const created = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
          drop = created.drop;
          options = { kind: "postgres", url: created.url };
          env = { DATABASE_URL: created.url };
        } else {
          const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-cli-actor-"));
          drop = () => rm(dataDir, { recursive: true, force: true });
          options = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
          env = { DATA_DIR: dataDir };
        }
        const person = (username: string, deactivatedAt: Date | null = null) => ({
          username,
          passwordHash: UNUSABLE_PASSWORD_HASH,
          name: username,
          deactivatedAt,
        });
        try {
          const setup = await openDatabase(options);
          await setup.migrate();
          await setup.db.insert(studies).values({ id: 7, name: "Actor study" });
          const [manager, bob] = await setup.db
            .insert(users)
            .values([
              person("manager@example.org"),
              person("bob@example.org"),
              person("gone@example.org", new Date()),
            ])
            .returning({ id: users.id });
          const lastBefore = async (db: typeof setup.db) =>
            (
              await db
                .select({ id: auditLog.id })
                .from(auditLog)
                .orderBy(sql`id desc`)
                .limit(1)
            )[0]!.id;
          const setupHead = await lastBefore(setup.db);
          await setup.close();

          const plain = await cli(["user", "deactivate", "--email", "bob@example.org"], env);
          expect(plain.stderr).toBe("");
          expect(plain.code).toBe(0);

          const acting = await cli(
            ["user", "reactivate", "--email", "bob@example.org", "--as", "MANAGER@example.org"],
            env,
          );
          expect(acting.stderr).toBe("");
          expect(acting.code).toBe(0);

          const check = await openDatabase(options);
          const afterActing = await lastBefore(check.db);
          await check.close();
          for (const [asEmail, reason] of [
            ["nobody@example.org", "no portal user has this email"],
            ["gone@example.org", "this user is deactivated"],
          ]) {
            const refused = await cli(
              ["--as", asEmail!, "user", "deactivate", "--email", "bob@example.org"],
              env,
            );
            expect(refused.code, asEmail).toBe(2);
            expect(refused.stderr).toContain(`--as ${asEmail}: ${reason}; nothing was changed.`);
          }
          const missingValue = await cli(["user", "deactivate", "--email", "bob@example.org", "--as"], env);
          expect(missingValue.code).toBe(2);
          expect(missingValue.stderr).toContain("--as needs the email of a portal user");

          const verified = await cli(["audit", "verify"], env);
          expect(verified.stderr).toBe("");
          expect(verified.code).toBe(0);
          expect(verified.stdout).toContain("audit chain intact");

          const db = await openDatabase(options);
          try {
            const [bobNow] = await db.db.select().from(users).where(eq(users.id, bob!.id));
            expect(bobNow!.deactivatedAt, "the refused commands changed nothing").toBeNull();
            const cliRows = await db.db
              .select()
              .from(auditLog)
              .where(gt(auditLog.id, setupHead))
              .orderBy(asc(auditLog.id));
            // audit verify's checkpoint is not an audit row: only the two commands wrote rows.
            expect(cliRows.at(-1)!.id).toBe(afterActing);
            const bobRows = cliRows.filter((row) => row.tableName === "users");
            expect(bobRows.map((row) => [row.action, row.actorUserId])).toEqual([
              ["update", null],
              ["update", manager!.id],
            ]);
            for (const row of cliRows) {
              expect(row.details, `${row.action} ${row.tableName}`).toMatchObject({ actor_label: operator });
            }

            // The server's writes (no label in its session) are recorded as before.
            await withAuditActor(db.db, manager!.id, (tx) =>
              tx.update(studies).set({ name: "Renamed by the portal" }).where(eq(studies.id, 7)),
            );
            const [serverRow] = await db.db
              .select()
              .from(auditLog)
              .orderBy(sql`id desc`)
              .limit(1);
            expect(serverRow).toMatchObject({
              tableName: "studies",
              actorUserId: manager!.id,
              details: null,
            });
          } finally {
            await db.close();
          }
          const stillIntact = await cli(["audit", "verify"], env);
          expect(stillIntact.code).toBe(0);
        } finally {
          await drop();
        }
      },
      // Eight processes, each starting Node, tsx and the database: slow on a busy machine.
      600_000,
    );
  }
});

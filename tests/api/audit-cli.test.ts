import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "../../server/audit/audit-trail.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { openDatabase, type DatabaseOptions } from "../../server/db/client.ts";
import { auditLog, studies } from "../../server/db/schema.ts";
import { databaseTargets, describeOnEachDatabase } from "../support/api-harness.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** An RFC 4180 reader, just strict enough to check what the export wrote. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"' && field === "") {
      index += 1;
      for (;;) {
        const end = text.indexOf('"', index);
        if (end === -1) throw new Error("Unterminated quoted field");
        field += text.slice(index, end);
        if (text[end + 1] === '"') {
          field += '"';
          index = end + 2;
        } else {
          index = end + 1;
          break;
        }
      }
    } else if (char === ",") {
      record.push(field);
      field = "";
      index += 1;
    } else if (char === "\r" && text[index + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      index += 2;
    } else {
      if (char === '"' || char === "\n" || char === "\r")
        throw new Error(`Bare ${JSON.stringify(char)} at ${index}`);
      field += char;
      index += 1;
    }
  }
  if (field !== "" || record.length > 0) throw new Error("The last record has no CRLF");
  return records;
}

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-audit-cli-"));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) },
    out,
    err,
  };
}

describeOnEachDatabase("clinro audit", (api) => {
  const run = async (args: string[]) => {
    const captured = capture();
    const code = await runCli(args, captured.output, { database: api.handle });
    return { code, out: captured.out.join("\n"), err: captured.err.join("\n") };
  };

  it("exports the audit trail as RFC 4180 CSV, one record per row in chain order", async () => {
    const awkward = 'a, "quoted" value\nwith a line break';
    await recordAuditEvent(api.db, { actorUserId: null, action: "test_event", details: { note: awkward } });
    const file = path.join(workDir, `export-${api.kind}.csv`);
    const result = await run(["audit", "export", file]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const records = parseCsv(await readFile(file, "utf8"));
    const [header, ...rows] = records;
    expect(header).toEqual([
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
    ]);
    const [{ total } = { total: 0 }] = await api.db.select({ total: count() }).from(auditLog);
    expect(rows).toHaveLength(total);
    const lastRow = rows.at(-1)!;
    expect(result.out).toBe(
      `${total} audit rows written to ${file}\n` +
        `audit head checkpointed: row ${lastRow[0]}, hash ${lastRow[10]} (keep it apart from the file)`,
    );
    expect(rows.map((row) => Number(row[0]))).toEqual(rows.map((_, index) => index + 1));
    expect(rows.every((row) => row.length === 11)).toBe(true);
    const mine = rows.find((row) => row[3] === "test_event")!;
    expect(JSON.parse(mine[8]!)).toEqual({ note: awkward });
    expect(mine[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(mine[2]).toBe("");
    expect(rows[0]![9]).toBe("");
    expect(rows[1]![9]).toBe(rows[0]![10]);

    const again = await run(["audit", "export", file]);
    expect(again).toMatchObject({ code: 1, err: `${file} already exists; nothing was written.` });
  });

  it("exit 2 with the usage for a wrong audit command line", async () => {
    for (const args of [["audit"], ["audit", "export"], ["audit", "verify", "extra"], ["audit", "erase"]]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.err).toContain("audit verify");
    }
  });
});

/** The command as people run it: its own process, the database from DATA_DIR or DATABASE_URL. */
describe("npm run clinro -- audit, as a process", () => {
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

  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `verifies an intact chain, exports it, and exits 1 at a tampered row (${target.title})`,
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
          const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-audit-data-"));
          drop = () => rm(dataDir, { recursive: true, force: true });
          options = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
          env = { DATA_DIR: dataDir };
        }
        try {
          const setup = await openDatabase(options);
          await setup.migrate();
          await setup.db.insert(studies).values([
            { id: 7, name: "Audit study" },
            { id: 8, name: 'Another, "quoted" study' },
          ]);
          await setup.db.execute(sql`update studies set name = 'Audit study (renamed)' where id = 7`);
          await setup.close();

          const intact = await cli(["audit", "verify"], env);
          expect(intact.stderr).toBe("");
          expect(intact.code).toBe(0);
          expect(intact.stdout).toContain("audit chain intact: 3 rows");

          const file = path.join(workDir, `process-${target.kind}.csv`);
          const exported = await cli(["audit", "export", file], env);
          expect(exported.code).toBe(0);
          const rows = parseCsv(await readFile(file, "utf8")).slice(1);
          expect(rows.map((row) => [row[3], row[4], row[5]])).toEqual([
            ["insert", "studies", '{"id": 7}'],
            ["insert", "studies", '{"id": 8}'],
            ["update", "studies", '{"id": 7}'],
          ]);
          expect(JSON.parse(rows[1]![7]!)).toMatchObject({ name: 'Another, "quoted" study' });
          expect(JSON.parse(rows[2]![6]!)).toMatchObject({ name: "Audit study" });
          expect(JSON.parse(rows[2]![7]!)).toMatchObject({ name: "Audit study (renamed)" });

          const tamper = await openDatabase(options);
          await tamper.db.transaction(async (tx) => {
            await tx.execute(sql`alter table audit_log disable trigger clinro_audit_log_append_only`);
            await tx.execute(
              sql`update audit_log set new_values = jsonb_set(new_values, '{name}', '"Forged"') where id = 2`,
            );
            await tx.execute(sql`alter table audit_log enable trigger clinro_audit_log_append_only`);
          });
          await tamper.close();
          const broken = await cli(["audit", "verify"], env);
          expect(broken.code).toBe(1);
          expect(broken.stderr).toContain(
            "audit chain broken at row 2: row 2 was changed after it was written (its content does not match its hash)",
          );
          expect(broken.stdout).toBe("");
        } finally {
          await drop();
        }
      },
      // Three processes, each starting Node, tsx and the database: slow on a busy machine.
      300_000,
    );
  }
});

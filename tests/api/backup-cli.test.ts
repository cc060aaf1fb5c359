/**
 * `clinro backup FILE` and `clinro restore FILE`: the demo data and an uploaded file, backed up
 * from PGlite, restored into an empty data directory (through the real command) and into an
 * empty PostgreSQL, then backed up from PostgreSQL and restored into PGlite again. Every table's
 * row count, every file's bytes and the audit chain come back as they were.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../../server/audit/audit-chain.ts";
import { withAuditActor } from "../../server/audit/audit-trail.ts";
import { tableRowCounts } from "../../server/backup/backup.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { executeRows, openDatabase, type Database, type DatabaseHandle } from "../../server/db/client.ts";
import { participants, uploadedFileContents, uploadedFiles, users } from "../../server/db/schema.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { saveFileContent } from "../../server/files/file-store.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";
import { testImage } from "../support/test-images.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const adminUrl = process.env.TEST_DATABASE_URL || undefined;

type Said = { code: number; out: string[]; err: string[] };

async function cli(argv: string[], database: DatabaseHandle): Promise<Said> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { database },
  );
  return { code, out, err };
}

/** The real command, as `npm run clinro -- ...` runs it. */
function command(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "server/cli/main.ts", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

async function files(db: Database) {
  return db
    .select({
      id: uploadedFileContents.fileId,
      sha256: uploadedFileContents.sha256,
      content: uploadedFileContents.content,
    })
    .from(uploadedFileContents)
    .orderBy(asc(uploadedFileContents.fileId));
}

describe("clinro backup and restore", () => {
  let workDir = "";
  let source: DatabaseHandle;
  let sourceCounts: Record<string, number>;
  let sourceChain: Awaited<ReturnType<typeof verifyAuditChain>>;
  let sourceFiles: Awaited<ReturnType<typeof files>>;
  let image: Uint8Array;
  let backupFile = "";

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "clinro-backup-"));
    source = await openDatabase({ kind: "pglite" });
    await source.migrate();
    await seedDemo(source.db);
    // An upload of the coordinator's, through the same writes as the upload call.
    image = await testImage("jpeg", 120, 90, 7);
    const [coordinator] = await source.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const [participant] = await source.db.select({ id: participants.id }).from(participants).limit(1);
    await withAuditActor(source.db, coordinator!.id, async (tx) => {
      const [file] = await tx
        .insert(uploadedFiles)
        .values({
          userId: coordinator!.id,
          participantId: participant!.id,
          moduleName: "clinro",
          platform: "clinro",
          fileName: "backup-photo.jpeg",
          storedName: "backup-photo.jpeg",
          contentType: "image/jpeg",
          sizeBytes: image.length,
        })
        .returning({ id: uploadedFiles.id });
      await saveFileContent(tx, file!.id, image);
    });
    sourceCounts = await tableRowCounts(source.db);
    sourceChain = await verifyAuditChain(source.db);
    sourceFiles = await files(source.db);
    backupFile = path.join(workDir, "clinro.backup.gz");
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** `checkpoints`: the audit checkpoints that backups of a restored copy added to it. */
  const expectSameAsSource = async (db: Database, checkpoints = 0) => {
    expect(await tableRowCounts(db)).toEqual({
      ...sourceCounts,
      audit_checkpoints: sourceCounts.audit_checkpoints! + checkpoints,
    });
    const chain = await verifyAuditChain(db);
    expect(chain.broken).toBeUndefined();
    expect(chain).toEqual(sourceChain);
    const restoredFiles = await files(db);
    expect(restoredFiles.map((file) => [file.id, file.sha256])).toEqual(
      sourceFiles.map((file) => [file.id, file.sha256]),
    );
    for (const [index, file] of restoredFiles.entries()) {
      expect(Buffer.compare(Buffer.from(file.content), Buffer.from(sourceFiles[index]!.content))).toBe(0);
    }
  };

  it("writes a backup readable by its owner only, with every table and file", async () => {
    expect(sourceCounts.uploaded_file_contents).toBeGreaterThan(1);
    expect(sourceCounts.audit_log).toBeGreaterThan(100);
    const said = await cli(["backup", backupFile], source);
    expect(said.err).toEqual([]);
    expect(said.code).toBe(0);
    // The backup checkpointed the audit chain's head first: one row more, in the backup too.
    const afterBackup = await tableRowCounts(source.db);
    expect(afterBackup).toEqual({ ...sourceCounts, audit_checkpoints: sourceCounts.audit_checkpoints! + 1 });
    sourceCounts = afterBackup;
    const total = Object.values(sourceCounts).reduce((sum, count) => sum + count, 0);
    expect(said.out[0]).toBe(
      `Backed up ${total} rows of ${Object.keys(sourceCounts).length} tables (pglite) to ${backupFile}.`,
    );
    expect(said.out[1]).toBe(
      `Audit head checkpointed: row ${sourceChain.rows}, hash ${sourceChain.lastHash}.`,
    );
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    const lines = gunzipSync(await readFile(backupFile))
      .toString("utf8")
      .trimEnd()
      .split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      format: "clinro-backup",
      version: 2,
      engine: "pglite",
      audit_head: { last_id: sourceChain.rows, last_hash: sourceChain.lastHash },
    });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: sourceCounts });
    // Each table: its columns, then its rows in COPY text, a row a line, ended by "\.".
    const usersAt = lines.findIndex((line) => line.startsWith('{"table":"users"'));
    expect(JSON.parse(lines[usersAt]!).columns).toContain("username");
    const usersEnd = lines.indexOf("\\.", usersAt);
    expect(usersEnd - usersAt - 1).toBe(sourceCounts.users);
    expect(
      lines.slice(usersAt + 1, usersEnd).some((line) => line.includes("\tcoordinator@demo.test\t")),
    ).toBe(true);
    // The image is in the file, as bytea's hex.
    expect(lines.some((line) => line.includes(`\\\\x${Buffer.from(image).toString("hex")}`))).toBe(true);
  });

  it("refuses to overwrite a file, and to restore into a database that holds rows", async () => {
    const again = await cli(["backup", backupFile], source);
    expect(again).toMatchObject({ code: 1, err: [`${backupFile} already exists; nothing was written.`] });
    const into = await cli(["restore", backupFile], source);
    expect(into.code).toBe(1);
    expect(into.err[0]).toMatch(
      /^The database is not empty \(.*users: \d+ rows.*\); a backup is restored only into an empty database\. Nothing was changed\.$/,
    );
    expect(await tableRowCounts(source.db)).toEqual(sourceCounts);
  });

  it("refuses a file that is no backup, and a cut one, leaving the database empty", async () => {
    const target = await openDatabase({ kind: "pglite" });
    try {
      await target.migrate();
      const empty = await tableRowCounts(target.db);
      const notBackup = path.join(workDir, "not-a-backup.gz");
      await writeFile(notBackup, gzipSync('{"hello":"world"}\n'));
      expect(await cli(["restore", notBackup], target)).toMatchObject({
        code: 1,
        err: [`${notBackup} is not a ClinRO backup.`],
      });
      const lines = gunzipSync(await readFile(backupFile))
        .toString("utf8")
        .split("\n");
      const cut = path.join(workDir, "cut.gz");
      await writeFile(cut, gzipSync(lines.slice(0, Math.floor(lines.length / 2)).join("\n")));
      expect(await cli(["restore", cut], target)).toMatchObject({
        code: 1,
        err: [`${cut} is cut short (no end line): nothing was restored.`],
      });
      // A row that does not fit its table (one value too few) is named, and nothing is restored.
      const usersAt = lines.findIndex((line) => line.startsWith('{"table":"users"'));
      const damaged = [...lines];
      damaged[usersAt + 1] = damaged[usersAt + 1]!.split("\t").slice(1).join("\t");
      const damagedFile = path.join(workDir, "damaged.gz");
      await writeFile(damagedFile, gzipSync(damaged.join("\n")));
      const refused = await cli(["restore", damagedFile], target);
      expect(refused.code).toBe(1);
      expect(refused.err[0]).toMatch(
        new RegExp(
          `^${damagedFile.replaceAll("/", "\\/")}: table users could not be restored \\(.+\\); nothing was restored\\.$`,
        ),
      );
      // Rows that refer to rows the file lacks (the sites taken out): refused as a whole.
      const sitesAt = lines.findIndex((line) => line.startsWith('{"table":"sites"'));
      const withoutSites = [...lines.slice(0, sitesAt + 1), ...lines.slice(lines.indexOf("\\.", sitesAt))];
      const orphanFile = path.join(workDir, "orphans.gz");
      await writeFile(orphanFile, gzipSync(withoutSites.join("\n")));
      const orphans = await cli(["restore", orphanFile], target);
      expect(orphans.code).toBe(1);
      expect(orphans.err[0]).toMatch(
        /: its rows do not hold together \(.*foreign key.*\); nothing was restored\.$/,
      );
      expect(await tableRowCounts(target.db)).toEqual(empty);
      expect(Object.values(empty).every((count) => count === 0)).toBe(true);
    } finally {
      await target.close();
    }
  });

  it("still restores a backup of format version 1, whose rows are JSON", async () => {
    // Version 1 as its writer made it: a JSON array of row_to_json rows a line under each table.
    const header = JSON.parse(
      gunzipSync(await readFile(backupFile))
        .toString("utf8")
        .split("\n")[0]!,
    );
    const version1 = [JSON.stringify({ ...header, version: 1 })];
    for (const table of header.tables as string[]) {
      version1.push(JSON.stringify({ table }));
      const rows = await executeRows<{ json: string }>(
        source.db,
        sql`select row_to_json(t)::text as json from ${sql.identifier(table)} t`,
      );
      if (rows.length > 0) version1.push(`[${rows.map((row) => row.json).join(",")}]`);
    }
    version1.push(JSON.stringify({ end: sourceCounts }));
    const oldFile = path.join(workDir, "version-1.gz");
    await writeFile(oldFile, gzipSync(`${version1.join("\n")}\n`));
    const target = await openDatabase({ kind: "pglite" });
    try {
      const said = await cli(["restore", oldFile], target);
      expect(said.err).toEqual([]);
      expect(said.code).toBe(0);
      await expectSameAsSource(target.db);
    } finally {
      await target.close();
    }
  }, 120_000);

  it("restores into an empty data directory through `npm run clinro -- restore`: every row, file and the audit chain", async () => {
    const dataDir = path.join(workDir, "restored-data");
    const restored = await command(["restore", backupFile], { DATA_DIR: dataDir });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored \d+ rows of \d+ tables from .* \(made .* on pglite\) into pglite\./,
    );
    const target = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    try {
      await expectSameAsSource(target.db);
      // The sequences go on after the restored ids, and new writes chain onto the restored audit trail.
      const [admin] = await target.db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(1);
      const [added] = await withAuditActor(target.db, admin!.id, (tx) =>
        tx
          .insert(participants)
          .values({ studyId: 101, siteId: 1011, fname: "After", lname: "Restore", subjectId: "MDD-AFTER" })
          .returning({ id: participants.id }),
      );
      expect(added!.id).toBeGreaterThan(sourceCounts.participants!);
      const chain = await verifyAuditChain(target.db);
      expect(chain.broken).toBeUndefined();
      expect(chain.rows).toBe(sourceChain.rows + 1);
    } finally {
      await target.close();
    }
  }, 120_000);

  describe.skipIf(!adminUrl)(
    adminUrl ? "on PostgreSQL" : "on PostgreSQL (skipped: TEST_DATABASE_URL is not set)",
    () => {
      let drop: (() => Promise<void>) | undefined;
      let postgresTarget: DatabaseHandle | undefined;
      // The PGlite source's backup, which the first test above writes when it runs in this pass
      // (the test command runs the PostgreSQL variants in a pass of their own).
      beforeAll(async () => {
        if (existsSync(backupFile)) return;
        expect((await cli(["backup", backupFile], source)).code).toBe(0);
        // The backup checkpointed the audit chain's head: one row more, as the first test says.
        sourceCounts = await tableRowCounts(source.db);
      });
      afterAll(async () => {
        await postgresTarget?.close();
        await drop?.();
      });

      it("restores the PGlite backup into an empty PostgreSQL, and a backup of that back into PGlite", async () => {
        const created = await createThrowawayDatabase(adminUrl!, "restore");
        drop = created.drop;
        postgresTarget = await openDatabase({ kind: "postgres", url: created.url, maxConnections: 2 });
        const restored = await cli(["restore", backupFile], postgresTarget);
        expect(restored.err).toEqual([]);
        expect(restored.code).toBe(0);
        await expectSameAsSource(postgresTarget.db);

        const fromPostgres = path.join(workDir, "from-postgres.gz");
        const backedUp = await cli(["backup", fromPostgres], postgresTarget);
        expect(backedUp.code).toBe(0);
        expect(backedUp.out[0]).toMatch(/\(postgres\)/);
        const back = await openDatabase({ kind: "pglite" });
        try {
          expect((await cli(["restore", fromPostgres], back)).code).toBe(0);
          // The backup of the PostgreSQL copy checkpointed its head there first.
          await expectSameAsSource(back.db, 1);
        } finally {
          await back.close();
        }
      }, 120_000);
    },
  );
});

/**
 * `npm run bench:scale:backup`: `clinro backup` and `clinro restore` of the scale
 * database (bench/scale/build.ts; SCALE_BACKUP_DATABASE, clinro_scale by default) against
 * PostgreSQL's own pg_dump -Fc / pg_restore of the same database (target: at most 2x each), run
 * one after the other as an operator would, each a child process timed from start to exit. Both
 * restores go into new empty databases; then every table's row count and the audit trail (its
 * row count and last hash, the checksum of the whole chain) are compared with the source's, and
 * `clinro audit verify` runs on the clinro-restored one. The restored databases and the files are
 * removed at the end (SCALE_BACKUP_KEEP=1 keeps them). SCALE_BACKUP_RESTORE=0 times the two
 * backups only; SCALE_BACKUP_VERIFY=0 leaves out the audit verify of the restored database (8
 * minutes at 5,000,000 rows; the counts and the chain's last hash are still compared).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { ADMIN_URL, SCALE_DATABASES, databaseUrl } from "./build.ts";

const source = process.env.SCALE_BACKUP_DATABASE ?? SCALE_DATABASES.full;
const restoredByClinro = `${source}_restored`;
const restoredByPg = `${source}_pg_restored`;
const dir = await mkdtemp(path.join(tmpdir(), "clinro-scale-backup-"));
const clinroFile = path.join(dir, "clinro.backup.gz");
const dumpFile = path.join(dir, "pg.dump");

function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ seconds: number; output: string }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) resolve({ seconds, output: output.trim() });
      else reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${output}`));
    });
  });
}

const clinro = (args: string[], database: string) =>
  run(process.execPath, ["--import", "tsx", "server/cli/main.ts", ...args], {
    DATABASE_URL: databaseUrl(database),
  });

async function recreate(name: string) {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end({ timeout: 5 });
}

async function drop(name: string) {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end({ timeout: 5 });
}

/** Every table's row count, and the audit trail's count and last hash. */
async function contents(database: string) {
  const db = postgres(databaseUrl(database), { max: 1, onnotice: () => {} });
  try {
    const tables = await db<{ name: string }[]>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`;
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await db.unsafe<{ count: string }[]>(`select count(*)::bigint as count from "${name}"`);
      counts[name] = Number(row?.count ?? 0);
    }
    const [last] = await db<
      { id: string; hash: string }[]
    >`select id, hash from audit_log order by id desc limit 1`;
    return { counts, audit: `${last?.id ?? 0} rows, last hash ${last?.hash ?? ""}` };
  } finally {
    await db.end({ timeout: 5 });
  }
}

const mib = async (file: string) => `${((await stat(file)).size / 2 ** 20).toFixed(0)} MiB`;
const ratioText = (ratio: number) => `${ratio.toFixed(2)}x ${ratio <= 2 ? "ok" : "MISS"}`;

try {
  const before = await contents(source);
  console.log(
    `${source}: ${Object.values(before.counts).reduce((a, b) => a + b, 0)} rows; audit ${before.audit}`,
  );

  const pgDump = await run("pg_dump", ["-Fc", "-f", dumpFile, databaseUrl(source)]);
  console.log(`pg_dump -Fc: ${pgDump.seconds.toFixed(1)} s, ${await mib(dumpFile)}`);
  const backup = await clinro(["backup", clinroFile], source);
  console.log(`clinro backup: ${backup.seconds.toFixed(1)} s, ${await mib(clinroFile)}`);

  if (process.env.SCALE_BACKUP_RESTORE === "0") {
    const ratio = backup.seconds / pgDump.seconds;
    console.log(
      `\n| backup | ${backup.seconds.toFixed(0)} s | ${pgDump.seconds.toFixed(0)} s | ${ratioText(ratio)} |`,
    );
    await rm(dir, { recursive: true, force: true });
    process.exit(0);
  }
  await recreate(restoredByPg);
  const pgRestore = await run("pg_restore", ["-d", databaseUrl(restoredByPg), dumpFile]);
  console.log(`pg_restore: ${pgRestore.seconds.toFixed(1)} s`);
  await drop(restoredByPg);
  await recreate(restoredByClinro);
  const restore = await clinro(["restore", clinroFile], restoredByClinro);
  console.log(`clinro restore: ${restore.seconds.toFixed(1)} s`);

  const after = await contents(restoredByClinro);
  const differing = Object.keys({ ...before.counts, ...after.counts }).filter(
    (table) => before.counts[table] !== after.counts[table],
  );
  const verify =
    process.env.SCALE_BACKUP_VERIFY === "0"
      ? { output: "not run (SCALE_BACKUP_VERIFY=0)" }
      : await clinro(["audit", "verify"], restoredByClinro);

  console.log(`\n| step | clinro | pg_dump / pg_restore | ratio (target at most 2x) |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| backup | ${backup.seconds.toFixed(0)} s | ${pgDump.seconds.toFixed(0)} s | ${ratioText(backup.seconds / pgDump.seconds)} |`,
  );
  console.log(
    `| restore | ${restore.seconds.toFixed(0)} s | ${pgRestore.seconds.toFixed(0)} s | ${ratioText(restore.seconds / pgRestore.seconds)} |`,
  );
  console.log(
    `\nrow counts after the restore: ${differing.length === 0 ? "identical in every table" : `DIFFER in ${differing.join(", ")}`}`,
  );
  console.log(
    `audit trail: before ${before.audit}; after ${after.audit}: ${before.audit === after.audit ? "identical" : "DIFFERENT"}`,
  );
  console.log(`clinro audit verify on the restored database: ${verify.output.split("\n")[0]}`);
} finally {
  if (!process.env.SCALE_BACKUP_KEEP) {
    await drop(restoredByClinro);
    await drop(restoredByPg);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL cluster of one test's own (initdb in a temporary folder, its own port), which the
 * test may stop and start: the shared server on 5432 is never stopped. Uses the Debian binaries
 * (/usr/lib/postgresql/N/bin) or PG_BIN. PostgreSQL refuses to run as root, so under root the
 * cluster runs as the `postgres` user.
 */
import { execFile } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./server-process.ts";

const run = promisify(execFile);

async function postgresBinDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? (await readdir(root)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, "bin")).find((dir) => existsSync(dir));
  if (!found) throw new Error("No PostgreSQL binaries: set PG_BIN to the folder holding initdb and pg_ctl");
  return found;
}

async function clusterUser() {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  return { uid, gid };
}

export type PrivatePostgres = {
  port: number;
  /** A URL of the superuser `postgres` on the database `name` (default "postgres"). */
  url: (name?: string) => string;
  /** "immediate" is a crash as far as the database's clients can tell: no backend says goodbye. */
  stop: (mode?: "fast" | "immediate") => Promise<void>;
  start: () => Promise<void>;
  /** Stops the cluster and removes its folder. */
  destroy: () => Promise<void>;
};

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBinDir();
  const user = await clusterUser();
  const dir = await mkdtemp(path.join(tmpdir(), "clinro-pg-"));
  if (user) await chown(dir, user.uid, user.gid);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const pgCtl = (...args: string[]) =>
    run(path.join(bin, "pg_ctl"), ["-D", dataDir, ...args], { ...as, cwd: dir, timeout: 120_000 });
  await run(
    path.join(bin, "initdb"),
    ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
    { ...as, cwd: dir, timeout: 120_000 },
  );
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  const start = async () => {
    await pgCtl("-o", options, "-l", path.join(dir, "log"), "-w", "-t", "120", "start");
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await pgCtl("-m", mode, "-w", "-t", "120", "stop");
  };
  await start();
  return {
    port,
    url: (name = "postgres") => `postgres://postgres@127.0.0.1:${port}/${name}`,
    start,
    stop,
    async destroy() {
      await stop("immediate").catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A portal server of a test's own, as a child process: the test can stop it (even in the middle
 * of a flush), start it again on the same data, and count what the database holds. On
 * PostgreSQL (TEST_DATABASE_URL set) it runs on a fresh database and is killed outright; on the
 * embedded database it is stopped with SIGTERM and the files are read after it stopped.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { createThrowawayDatabase } from "../../support/throwaway-postgres.ts";
import { E2E_STATIC_DIR } from "./e2e-dirs.ts";

const adminUrl = process.env.TEST_DATABASE_URL || undefined;

export type PortalServer = {
  readonly url: string;
  readonly onPostgres: boolean;
  /** Its DATA_DIR: the mail it writes without SMTP is under mail/. */
  readonly dataDir: string;
  start(): Promise<void>;
  /** Stops the process: SIGKILL on PostgreSQL (a crash), SIGTERM on the embedded database. */
  stop(): Promise<void>;
  /**
   * Runs `npm run clinro -- ...args` on the server's database, as a site's IT person would. The
   * embedded database serves one process at a time: there the server is stopped around it.
   */
  clinro(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Runs a count query; on the embedded database the server must be stopped first. */
  count(query: string, params?: unknown[]): Promise<number>;
  dispose(): Promise<void>;
};

async function waitUntilHealthy(url: string, process: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null || process.signalCode !== null) {
      throw new Error(`The server exited (${process.exitCode ?? process.signalCode})`);
    }
    try {
      const answer = await fetch(`${url}/healthz`);
      if (answer.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("The server did not become healthy in time");
}

/** A process killed by a signal keeps exitCode null: look at both. */
const isRunning = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * @param options.seed what an empty database gets (default the demo); "none" starts a site's own
 *   portal, empty.
 */
export async function createPortalServer(
  port: number,
  options: { seed?: "demo" | "none" } = {},
): Promise<PortalServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-e2e-"));
  const throwaway = adminUrl ? await createThrowawayDatabase(adminUrl, "e2e") : undefined;
  const databaseUrl = throwaway?.url;
  let child: ChildProcess | undefined;
  const url = `http://localhost:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    STATIC_DIR: E2E_STATIC_DIR,
    SEED: options.seed ?? "demo",
    LOG_LEVEL: "warn",
    PUBLIC_URL: url,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: "" }),
  };

  const server: PortalServer = {
    url,
    onPostgres: databaseUrl !== undefined,
    dataDir,
    async start() {
      child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
        env,
        stdio: ["ignore", "inherit", "inherit"],
      });
      await waitUntilHealthy(url, child);
    },
    async clinro(...args) {
      const wasRunning = isRunning(child);
      if (!databaseUrl && wasRunning) await server.stop();
      try {
        const command = spawn(process.execPath, ["--import", "tsx", "server/cli/main.ts", ...args], {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        command.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
        command.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
        const code = await new Promise<number | null>((resolve) => command.once("exit", resolve));
        return { code, stdout, stderr };
      } finally {
        if (!databaseUrl && wasRunning) await server.start();
      }
    },
    async stop() {
      const running = child;
      if (!isRunning(running)) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill(databaseUrl ? "SIGKILL" : "SIGTERM");
      await exited;
    },
    async count(query, params = []) {
      if (databaseUrl) {
        const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
        try {
          const rows = await sql.unsafe(query, params as never[]);
          return Number(rows[0]?.count);
        } finally {
          await sql.end();
        }
      }
      if (child && child.exitCode === null)
        throw new Error("Stop the server before reading its embedded database");
      // The database's trigram indexes need the extension the server loads (server/db/client.ts).
      const db = new PGlite(path.join(dataDir, "pglite"), { extensions: { pg_trgm } });
      try {
        const result = await db.query<{ count: number | string }>(query, params);
        return Number(result.rows[0]?.count);
      } finally {
        await db.close();
      }
    },
    async dispose() {
      await server.stop();
      await throwaway?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

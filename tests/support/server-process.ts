/**
 * A real server process (node server/main.ts) on a free port, for tests and benches that need
 * several servers on one database or a server under load. Its data directory is a fresh
 * temporary folder, removed when it stops.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** Whether stopping removes dataDir (a folder the process made for itself). */
  ownsDataDir: boolean;
  /** What it printed on standard output (its log), when started with captureOutput. */
  output: string[];
};

export async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("No free port");
  return address.port;
}

async function waitUntilHealthy(url: string, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server at ${url} exited`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts `node server/main.ts` with the demo seed: on databaseUrl when given, else on PGlite in
 * the data directory (dataDir, kept; else a fresh temporary one, removed when it stops). `env`
 * adds or overrides variables (an empty value unsets one: `SEED: ""` leaves the default).
 */
export async function startServerProcess(options: {
  databaseUrl?: string;
  jwtSecret: string;
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
  /** Keep its standard output (the log) in `output`. */
  captureOutput?: boolean;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "clinro-server-")));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      JWT_SECRET: options.jwtSecret,
      STATIC_DIR: path.join(dataDir, "no-app"),
      SEED: "demo",
      LOG_LEVEL: "warn",
      AGORA_APP_ID: "",
      AGORA_APP_CERTIFICATE: "",
      ...options.env,
    },
    stdio: ["ignore", options.captureOutput ? "pipe" : "ignore", "inherit"],
  });
  const output: string[] = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(url, child);
  } catch (error) {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return { url, child, dataDir, ownsDataDir, output };
}

export async function stopServerProcess(server: ServerProcess | undefined) {
  if (!server) return;
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (server.ownsDataDir) await rm(server.dataDir, { recursive: true, force: true });
}

/**
 * One process at a time on an embedded database. PGlite keeps its database in memory and writes
 * it back to the data directory; a second process opening the same directory (the `clinro`
 * command while the server runs) would read a stale copy and the two would overwrite each
 * other's changes. So whoever opens a PGlite data directory holds `<dataDir>.lock`, a file with
 * its process id, until it closes. A lock whose process is gone (a crash, kill -9) is taken over.
 */
import { open, readFile, rm } from "node:fs/promises";
import path from "node:path";

export class DatabaseInUseError extends Error {
  constructor(dataDir: string, pid: number, lockPath: string) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (the portal server?). ` +
        "PGlite serves one process at a time: stop that process first, or use DATABASE_URL. " +
        `If no process uses it, delete ${lockPath}.`,
    );
    this.name = "DatabaseInUseError";
  }
}

/**
 * The locks this process holds. A lock naming our own pid that is not here was left by an earlier
 * process that had the same pid (a restarted container's pid 1): it is stale.
 */
const held = new Set<string>();

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holderOf(lockPath: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the data directory's lock; answers the function that gives it back. */
export async function lockPgliteDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${path.resolve(dataDir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      held.add(lockPath);
      return async () => {
        held.delete(lockPath);
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = await holderOf(lockPath);
      const ours = pid === process.pid;
      if (pid !== undefined && (ours ? held.has(lockPath) : isRunning(pid))) {
        throw new DatabaseInUseError(dataDir, pid, lockPath);
      }
      // Left by a process that is gone: take it over.
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

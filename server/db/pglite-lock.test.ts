import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, lockPgliteDataDir } from "./pglite-lock.ts";

describe("the PGlite data directory lock", () => {
  let directory = "";
  let dataDir = "";
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "clinro-lock-"));
    dataDir = path.join(directory, "pglite");
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("holds <dataDir>.lock with the process id until released", async () => {
    const release = await lockPgliteDataDir(dataDir);
    expect(await readFile(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    await expect(lockPgliteDataDir(dataDir)).rejects.toBeInstanceOf(DatabaseInUseError);
    await release();
    const again = await lockPgliteDataDir(dataDir);
    await again();
  });

  it("refuses while another running process holds it", async () => {
    await writeFile(`${dataDir}.lock`, String(process.ppid));
    await expect(lockPgliteDataDir(dataDir)).rejects.toThrow(`in use by process ${process.ppid}`);
  });

  it("takes over a lock left by a process that is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    await writeFile(`${dataDir}.lock`, String(gone));
    const release = await lockPgliteDataDir(dataDir);
    expect(await readFile(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    await release();
  });

  it("takes over a lock naming this process's pid that this process does not hold (a restarted container)", async () => {
    await writeFile(`${dataDir}.lock`, String(process.pid));
    const release = await lockPgliteDataDir(dataDir);
    await release();
  });
});

/**
 * Passwords are hashed and verified on their own threads (password-threads.ts), niced in the
 * server so that a wave of sign-ins yields the CPU to the calls of clinicians at work.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { onPasswordThread } from "./password-threads.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

/**
 * In a process of its own (the threads of this one may already be running, started by an earlier
 * test file): the nice value of each of its threads (field 19 of /proc/self/task/TID/stat) before
 * and after it set the hashing threads' nice value and hashed and verified a password.
 */
async function niceValuesAroundHashing(directory: string) {
  const script = path.join(directory, "nice.mts");
  const module = (name: string) => JSON.stringify(path.resolve(import.meta.dirname, name));
  await writeFile(
    script,
    `import { readdirSync, readFileSync } from "node:fs";
    import { setPasswordHashNice } from ${module("password-threads.ts")};
    import { hashPassword, verifyPassword } from ${module("passwords.ts")};
    const niceValues = () => readdirSync("/proc/self/task").map((tid) => {
      const stat = readFileSync("/proc/self/task/" + tid + "/stat", "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    });
    const before = niceValues();
    setPasswordHashNice(10);
    const hashed = await hashPassword("Correct horse 42");
    const verified = [await verifyPassword(hashed, "Correct horse 42"), await verifyPassword(hashed, "Correct horse 43")];
    console.log(JSON.stringify({ before, after: niceValues(), hashed, verified }));
    process.exit(0);`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], {
    timeout: 20_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    before: number[];
    after: number[];
    hashed: string;
    verified: boolean[];
  };
}

describe("password threads", () => {
  it("hash and verify on a thread at the nice value set, and the process's own threads keep theirs", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "clinro-nice-"));
    try {
      const { before, after, hashed, verified } = await niceValuesAroundHashing(directory);
      expect(before.filter((nice) => nice === 10)).toEqual([]);
      expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(verified).toEqual([true, false]);
      // The hashing threads (one per two cores) run at 10; every other thread as before.
      expect(after.filter((nice) => nice === 10).length).toBeGreaterThanOrEqual(1);
      expect(after.filter((nice) => nice !== 10).every((nice) => nice === before[0])).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("answers each of many verifications at once with its own result", async () => {
    const hashed = await hashPassword("one of many");
    const attempts = Array.from({ length: 12 }, (_, index) =>
      index % 3 === 0 ? "one of many" : `wrong ${index}`,
    );
    const results = await Promise.all(attempts.map((attempt) => verifyPassword(hashed, attempt)));
    expect(results).toEqual(attempts.map((attempt) => attempt === "one of many"));
  });

  it("says no, never fails, for an unusable or damaged stored hash and for an unknown user", async () => {
    expect(await verifyPassword("!no-password-set", "anything")).toBe(false);
    expect(await verifyPassword("$argon2id$v=19$damaged", "anything")).toBe(false);
    expect(await verifyPassword(undefined, "anything")).toBe(false);
  });

  it("fails a job whose hashing fails, rather than answering for it", async () => {
    // Below argon2's least memory cost: the thread's error reaches the caller.
    await expect(
      onPasswordThread({ op: "hash", password: "x", options: { algorithm: 2, memoryCost: 1 } }),
    ).rejects.toThrow(/memory/i);
    // The thread still answers the next job.
    expect(await hashPassword("after a failure")).toMatch(/^\$argon2id\$/);
  });

  it("lets a command that hashes a password end when its work is done", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "clinro-hash-command-"));
    const script = path.join(directory, "hash.mts");
    await writeFile(
      script,
      `import { hashPassword } from ${JSON.stringify(path.resolve(import.meta.dirname, "passwords.ts"))};
      console.log(await hashPassword("from a command"));`,
    );
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], {
        timeout: 20_000,
      });
      expect(stdout.trim()).toMatch(/^\$argon2id\$/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

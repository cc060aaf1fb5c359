/**
 * A password-hashing thread (server/auth/password-threads.ts starts it): argon2id hashes and
 * verifies, one message at a time, on a thread whose scheduling priority is lowered by the nice
 * value it is given. A sign-in's hash is 13 to 26 ms of CPU on a 2-core server; a shift signing in at once would otherwise
 * take both cores of a small server from every clinician already at work, whose calls (a
 * submission, a participant opened) then wait behind the hashes. Niced, the hashes take the CPU
 * the other calls leave. Plain JavaScript: a worker does not inherit tsx's loader under vitest.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { hashSync, verifySync } from "@node-rs/argon2";

const nice = Number(workerData?.nice ?? 0);
if (nice > 0) {
  try {
    // Linux schedules threads as tasks: /proc/thread-self names this thread's id, and
    // setpriority on it changes this thread alone.
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    setPriority(threadId, nice);
  } catch {
    // No /proc (not Linux): the thread keeps the process's priority.
  }
}

/** A stored hash that cannot be read (damaged, another format) verifies no password. */
function verifies(hashed, password) {
  try {
    return verifySync(hashed, password);
  } catch {
    return false;
  }
}

parentPort.on("message", ({ id, op, password, hashed, options }) => {
  try {
    const result = op === "hash" ? hashSync(password, options) : verifies(hashed, password);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

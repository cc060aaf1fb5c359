/**
 * The threads that hash and verify passwords (password-worker.mjs), off the event loop and, in
 * the server, at a lowered scheduling priority (PASSWORD_HASH_NICE, see server/env.ts): sign-ins
 * then take the CPU that the calls of clinicians at work leave, instead of sharing it equally
 * with them.
 *
 * One thread per two cores (one on a 2-core server): more threads than cores would only share
 * them. A thread holds the process open only while it has work, so a command-line use of the
 * hashes (the seed, a bench) ends when its work does.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

type Job = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Thread = { worker: Worker; pending: Map<number, Job> };

let nice = 0;
let threads: Thread[] = [];
let nextId = 1;

/** The nice value of the threads started from now on (0 to 19; 0 keeps the process's priority). */
export function setPasswordHashNice(value: number) {
  nice = value;
}

function startThread(): Thread {
  const worker = new Worker(new URL("./password-worker.mjs", import.meta.url), { workerData: { nice } });
  const thread: Thread = { worker, pending: new Map() };
  worker.unref();
  worker.on("message", ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const job = thread.pending.get(id);
    if (!job) return;
    thread.pending.delete(id);
    if (thread.pending.size === 0) worker.unref();
    if (error === undefined) job.resolve(result);
    else job.reject(new Error(error));
  });
  // A thread that fails or ends fails its jobs; the next job starts a new one.
  const fail = (error: Error) => {
    threads = threads.filter((other) => other !== thread);
    for (const job of thread.pending.values()) job.reject(error);
    thread.pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the password thread ended (exit code ${code})`)));
  return thread;
}

/** Runs one hashing job on the least busy thread, starting the threads on first use. */
export function onPasswordThread<Result>(message: Record<string, unknown>): Promise<Result> {
  const size = Math.max(1, Math.floor(availableParallelism() / 2));
  while (threads.length < size) threads.push(startThread());
  const thread = threads.reduce((least, other) => (other.pending.size < least.pending.size ? other : least));
  const id = nextId++;
  return new Promise<Result>((resolve, reject) => {
    thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    thread.worker.ref();
    thread.worker.postMessage({ ...message, id });
  });
}

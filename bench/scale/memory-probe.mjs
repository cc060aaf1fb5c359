/**
 * Loaded into each server process of `npm run bench:scale:load` (NODE_OPTIONS=--import=...):
 * appends to BENCH_MEMORY_FILE every BENCH_MEMORY_INTERVAL_MS (5 s) one JSON line (at: epoch
 * ms) with the process's process.memoryUsage(), so that the bench can tell a JavaScript heap that
 * grows (something kept without bound) from a resident size that grows otherwise, and the time
 * the server took for the requests that finished in that interval (request event to the
 * response's finish, ms: count, p50, p95, max), which the clients' figures hold with their own
 * waits (their event loop, the network). Plain JavaScript: it runs before tsx is loaded.
 */
import { appendFileSync } from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const file = process.env.BENCH_MEMORY_FILE;
// The main thread only: the server's password threads load this file too (NODE_OPTIONS).
if (file && isMainThread) {
  const interval = Number(process.env.BENCH_MEMORY_INTERVAL_MS ?? 5000);
  let durations = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, request, response) {
    if (event === "request" && response) {
      const started = performance.now();
      response.once("finish", () => durations.push(performance.now() - started));
    }
    return emit.apply(this, arguments);
  };
  setInterval(() => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const sorted = durations.sort((a, b) => a - b);
    durations = [];
    const at = (p) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;
    const requests = {
      count: sorted.length,
      p50: at(0.5),
      p95: at(0.95),
      max: sorted.at(-1) ?? null,
      all: sorted,
    };
    appendFileSync(
      file,
      `${JSON.stringify({ at: Date.now(), rss, heapTotal, heapUsed, external, arrayBuffers, requests })}\n`,
    );
  }, interval).unref();
}

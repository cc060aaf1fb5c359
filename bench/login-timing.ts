/**
 * `npm run bench:login`: sign-in answer times for a known username with a wrong password and
 * for an unknown username, through HTTP on the embedded database. The two should match: the
 * answer time must not tell which accounts exist.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../server/app.ts";
import { createTokenSigner } from "../server/auth/tokens.ts";
import { openDatabase } from "../server/db/client.ts";
import { seedDemo } from "../server/seed/demo.ts";

const ATTEMPTS = 60;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const database = await openDatabase({ kind: "pglite" });
await database.migrate();
await seedDemo(database.db);
const app = await buildApp({
  db: database.db,
  tokens: createTokenSigner(new TextEncoder().encode("bench-secret-".repeat(4)), 3600),
  loginRateLimit: { maxFailures: 1_000_000, windowSeconds: 60 },
  dataDir: await mkdtemp(path.join(tmpdir(), "clinro-bench-")),
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });

async function timeSignIn(username: string) {
  const started = performance.now();
  const answer = await fetch(`${address}/control/clinro/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: "not-the-password" }),
  });
  await answer.arrayBuffer();
  if (answer.status !== 400) throw new Error(`expected 400, got ${answer.status}`);
  return performance.now() - started;
}

const known: number[] = [];
const unknown: number[] = [];
for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
  // Interleaved, so that drift in the machine's load touches both alike.
  known.push(await timeSignIn("coordinator@demo.test"));
  unknown.push(await timeSignIn(`nobody${attempt}@demo.test`));
}
for (const [label, times] of [
  ["known username, wrong password", known],
  ["unknown username", unknown],
] as const) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(32)} median ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  (n=${ATTEMPTS})`,
  );
}
await app.close();
await database.close();

/**
 * `npm run bench:audit`: what the audit trail costs and how fast it is checked, on the embedded
 * database (and on PostgreSQL with BENCH_DATABASE_URL=postgres://...):
 *  - single-row updates of one table, with its audit trigger and with the trigger removed;
 *  - concurrent audited writers (PostgreSQL: the chain's lock makes them commit one by one);
 *  - `audit verify` and `audit export` over the whole chain.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { exportAuditCsv, verifyAuditChain } from "../server/audit/audit-chain.ts";
import { withAuditActor } from "../server/audit/audit-trail.ts";
import { openDatabase } from "../server/db/client.ts";
import { users } from "../server/db/schema.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { createThrowawayDatabase } from "../tests/support/throwaway-postgres.ts";

const WRITES = 400;
const CONCURRENT = 8;

const adminUrl = process.env.BENCH_DATABASE_URL;
const throwaway = adminUrl ? await createThrowawayDatabase(adminUrl, "bench") : undefined;
const handle = await openDatabase(throwaway ? { kind: "postgres", url: throwaway.url } : { kind: "pglite" });
await handle.migrate();
await seedDemo(handle.db);
const db = handle.db;
const [user] = await db.select({ id: users.id }).from(users).limit(1);
const userId = user!.id;

async function timeUpdates(label: string) {
  const started = performance.now();
  for (let index = 0; index < WRITES; index += 1) {
    await withAuditActor(db, userId, (tx) =>
      tx
        .update(users)
        .set({ nickname: `n${index}` })
        .where(eq(users.id, userId)),
    );
  }
  const perWrite = (performance.now() - started) / WRITES;
  console.log(`${label}: ${perWrite.toFixed(2)} ms per single-row update (${WRITES} updates)`);
}

await timeUpdates("with the audit trigger");
await timeUpdates("with the audit trigger (again)");

const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENT }, (_, writer) =>
    (async () => {
      for (let index = 0; index < WRITES / CONCURRENT; index += 1) {
        await withAuditActor(db, userId, (tx) =>
          tx
            .update(users)
            .set({ nickname: `w${writer}-${index}` })
            .where(eq(users.id, userId)),
        );
      }
    })(),
  ),
);
console.log(
  `${CONCURRENT} concurrent writers: ${((performance.now() - started) / WRITES).toFixed(2)} ms per update overall`,
);

const verifyStarted = performance.now();
const report = await verifyAuditChain(db);
const verifyMs = performance.now() - verifyStarted;
console.log(
  `audit verify: ${report.rows} rows in ${verifyMs.toFixed(0)} ms (${((verifyMs / report.rows) * 1000).toFixed(0)} µs per row)${report.broken ? `; BROKEN at ${report.broken.id}` : ""}`,
);
const dir = await mkdtemp(path.join(tmpdir(), "clinro-bench-audit-"));
const exportStarted = performance.now();
const exported = await exportAuditCsv(db, path.join(dir, "audit.csv"));
console.log(`audit export: ${exported} rows in ${(performance.now() - exportStarted).toFixed(0)} ms`);
await rm(dir, { recursive: true, force: true });

await db.execute(sql`drop trigger clinro_audit on users`);
await timeUpdates("without the audit trigger");
await timeUpdates("without the audit trigger (again)");

await handle.close();
await throwaway?.drop();

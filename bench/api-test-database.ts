/**
 * What one API test file's database costs: migrated and demo-seeded from nothing, or copied from
 * the run's seeded template (tests/support/api-database-templates.ts), on each engine.
 *
 *   npm run bench:api-database            PGlite, and PostgreSQL when TEST_DATABASE_URL is set
 *   BENCH_ROUNDS=5 npm run bench:api-database
 *
 * Prints each way's median wall time and the process's CPU time for it, per round.
 */
import { cpuUsage } from "node:process";
import { openDatabase, type DatabaseHandle } from "../server/db/client.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { createThrowawayDatabase } from "../tests/support/throwaway-postgres.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const adminUrl = process.env.TEST_DATABASE_URL || undefined;

type Figures = { wallMs: number[]; cpuMs: number[] };

async function measure(open: () => Promise<{ handle: DatabaseHandle; drop?: () => Promise<void> }>) {
  const figures: Figures = { wallMs: [], cpuMs: [] };
  for (let round = 0; round < rounds; round++) {
    const cpuBefore = cpuUsage();
    const started = performance.now();
    const { handle, drop } = await open();
    figures.wallMs.push(performance.now() - started);
    const cpu = cpuUsage(cpuBefore);
    figures.cpuMs.push((cpu.user + cpu.system) / 1000);
    await handle.close();
    await drop?.();
  }
  return figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const print = (label: string, figures: Figures) =>
  console.log(
    `${label.padEnd(44)} wall ${median(figures.wallMs).toFixed(0).padStart(6)} ms   this process's CPU ${median(figures.cpuMs).toFixed(0).padStart(6)} ms`,
  );

async function migratedAndSeeded(handle: DatabaseHandle) {
  await handle.migrate();
  await seedDemo(handle.db);
  return handle;
}

// PGlite: from nothing, and from the dumped data directory of a seeded one.
const template = await migratedAndSeeded(await openDatabase({ kind: "pglite" }));
const dump = await template.dumpDataDir!();
await template.close();
print(
  "PGlite, migrated and seeded",
  await measure(async () => ({ handle: await migratedAndSeeded(await openDatabase({ kind: "pglite" })) })),
);
print(
  "PGlite, loaded from the seeded data directory",
  await measure(async () => ({ handle: await openDatabase({ kind: "pglite", loadDataDir: dump }) })),
);

if (adminUrl) {
  const seeded = await createThrowawayDatabase(adminUrl, "bench_template");
  const seededHandle = await migratedAndSeeded(await openDatabase({ kind: "postgres", url: seeded.url }));
  await seededHandle.close();
  // Most of a seed's cost on PostgreSQL is the server's, not this process's: the wall time tells.
  print(
    "PostgreSQL, migrated and seeded",
    await measure(async () => {
      const created = await createThrowawayDatabase(adminUrl, "bench");
      const handle = await openDatabase({ kind: "postgres", url: created.url });
      return { handle: await migratedAndSeeded(handle), drop: created.drop };
    }),
  );
  print(
    "PostgreSQL, created from the seeded template",
    await measure(async () => {
      const created = await createThrowawayDatabase(adminUrl, "bench", seeded.name);
      return { handle: await openDatabase({ kind: "postgres", url: created.url }), drop: created.drop };
    }),
  );
  await seeded.drop();
} else {
  console.log("PostgreSQL: skipped, TEST_DATABASE_URL is not set");
}

/**
 * Vitest's global setup for the API tests: one migrated, demo-seeded database per engine, made
 * once per run, that every test file copies instead of migrating and seeding its own (the copy
 * is the same rows, sequences and hashes a fresh seed makes, for a fraction of its cost).
 *
 * - PGlite: the seeded database's data directory, dumped once to an uncompressed tar file that
 *   each file's in-memory PGlite loads (`loadDataDir`).
 * - PostgreSQL: a database marked as a template on the TEST_DATABASE_URL server, which each
 *   file's throw-away database is created from (`CREATE DATABASE ... TEMPLATE`); nobody stays
 *   connected to it, as PostgreSQL requires of a template.
 *
 * The harness finds them through `inject` (api-harness.ts); a file run outside this setup (no
 * template provided) migrates and seeds its own, as before.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { createThrowawayDatabase } from "./throwaway-postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The seeded PGlite data directory as a tar file, or "" when none was made. */
    pgliteTemplateFile: string;
    /** The seeded PostgreSQL template database's name, or "" when none was made. */
    postgresTemplateDatabase: string;
  }
}

async function makePgliteTemplate(folder: string): Promise<string> {
  const handle = await openDatabase({ kind: "pglite" });
  try {
    await handle.migrate();
    await seedDemo(handle.db);
    if (!handle.dumpDataDir) throw new Error("A PGlite handle dumps its data directory");
    const dump = await handle.dumpDataDir();
    const file = path.join(folder, "pglite-seeded.tar");
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await handle.close();
  }
}

async function makePostgresTemplate(adminUrl: string) {
  const created = await createThrowawayDatabase(adminUrl, "template");
  const handle = await openDatabase({ kind: "postgres", url: created.url, maxConnections: 2 });
  try {
    await handle.migrate();
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`ALTER DATABASE "${created.name}" WITH IS_TEMPLATE true`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return {
    name: created.name,
    async drop() {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`ALTER DATABASE "${created.name}" WITH IS_TEMPLATE false`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
      await created.drop();
    },
  };
}

/**
 * The engines this run tests (CLINRO_TEST_DATABASES, "pglite,postgres" by default): the test
 * command's stages run each engine apart and make only its template.
 */
const selectedKinds = (process.env.CLINRO_TEST_DATABASES ?? "pglite,postgres").split(",");
const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

export default async function setup(project: TestProject) {
  const kinds = selectedKinds;
  const folder = await mkdtemp(path.join(tmpdir(), "clinro-api-templates-"));
  const [pgliteFile, postgresTemplate] = await Promise.all([
    kinds.includes("pglite") ? makePgliteTemplate(folder) : undefined,
    kinds.includes("postgres") && testDatabaseUrl ? makePostgresTemplate(testDatabaseUrl) : undefined,
  ]);
  project.provide("pgliteTemplateFile", pgliteFile ?? "");
  project.provide("postgresTemplateDatabase", postgresTemplate?.name ?? "");
  return async () => {
    try {
      await postgresTemplate?.drop();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}

/**
 * The one place that chooses between the embedded PGlite database and a real PostgreSQL.
 * Both speak the same SQL, share one schema and one set of migrations.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Column, type SQL } from "drizzle-orm";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { makePrivateDir } from "../private-dir.ts";
import {
  pgliteBulkTransaction,
  postgresBulkTransaction,
  type BulkMode,
  type BulkSession,
} from "./bulk-session.ts";
import { lockPgliteDataDir } from "./pglite-lock.ts";
import * as schema from "./schema.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of either engine, as Database.transaction hands it to its callback. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The rows of a raw SQL statement, whichever engine ran it: postgres.js answers an array of rows,
 * PGlite an object holding them. The one place that knows (a row type is the caller's word).
 */
export async function executeRows<Row extends Record<string, unknown>>(
  db: Database | Transaction,
  statement: SQL,
): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

const dialect = new PgDialect();

/**
 * A raw SQL read made at every call of a route, prepared once per database (keep it with
 * preparedPerDatabase). Its values are named placeholders (sql.placeholder), filled by `all`:
 * - Drizzle builds its text once, not at every call (0.1 ms of CPU for the consents list's
 *   statement, as much as PostgreSQL spends running it);
 * - it is sent as a prepared statement, which PostgreSQL may plan once per connection, where
 *   Drizzle sends a raw statement unprepared and PostgreSQL plans it anew each time;
 * - `all` answers the rows as the database sends them, without Drizzle's mapping of each cell
 *   into its column's type (2 ms of CPU for 2,000 rows). The row type is the caller's word.
 */
/**
 * A column under a name of the caller's, for a select read with preparedRows: the rows carry the
 * names the statement gives, not Drizzle's keys.
 */
export const aliased = (column: Column, name: string) => sql`${column}`.as(name);

export function preparedRows<Row, Values extends Record<string, unknown>>(
  db: Database,
  name: string,
  statement: SQL,
) {
  const query = dialect.sqlToQuery(statement);
  const prepared = db._.session.prepareQuery(query, undefined, name, false);
  return {
    /** The text and its parameters, placeholders where the values go: for a test to explain its plan. */
    query,
    all: async (values: Values): Promise<Row[]> => {
      // Without fields to map, Drizzle answers what the driver does (executeRows' two shapes).
      const result = (await prepared.execute(values)) as unknown as Row[] | { rows: Row[] };
      return Array.isArray(result) ? result : result.rows;
    },
  };
}

/**
 * PostgreSQL's LISTEN/NOTIFY, for what several server processes on one database must hear from
 * each other (visit signalling). Listening holds one dedicated connection, reopened (and the
 * channels listened again) when it drops. A payload must stay under 8000 bytes.
 */
export type DatabaseNotifications = {
  /** Answers the function that stops listening. */
  listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
  notify: (channel: string, payload: string) => Promise<void>;
};

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** PostgreSQL only: PGlite serves one process, which needs nobody else to hear it. */
  notifications?: DatabaseNotifications;
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate: () => Promise<void>;
  /**
   * Applies pending migrations, then runs `afterMigrations` (a first seeding), both under the
   * start-up lock: of several processes starting together on one empty database, one migrates
   * and seeds while the others wait, then find it done. PostgreSQL takes an advisory lock for
   * it; PGlite serves one process at a time anyway (pglite-lock.ts).
   */
  startUp: <T>(afterMigrations: () => Promise<T>) => Promise<T>;
  /**
   * Keeps the planner's statistics fresh: PostgreSQL's autovacuum does it, PGlite has none, so
   * for PGlite this runs ANALYZE now and every PGLITE_ANALYZE_INTERVAL_MS. Without statistics
   * the planner reads a site's participants in full instead of using the search indexes.
   */
  startMaintenance: () => Promise<void>;
  /** PGlite only: the whole data directory as a tar file, which `loadDataDir` opens again. */
  dumpDataDir?: () => Promise<Blob>;
  /** One transaction that moves whole tables in COPY text (backup and restore): bulk-session.ts. */
  bulkTransaction: <T>(mode: BulkMode, work: (session: BulkSession) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

export const PGLITE_ANALYZE_INTERVAL_MS = 10 * 60 * 1000;

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
/** Any fixed number: the advisory lock that serialises start-ups across server processes. */
const MIGRATION_LOCK_ID = 7_357_001;

/**
 * Session-level settings every connection starts with (the `clinro` command's actor,
 * server/cli/cli-actor.ts). A transaction's own set_config(..., true) still wins inside it.
 */
export type SessionSettings = Record<string, string>;

export type DatabaseOptions =
  | { kind: "postgres"; url: string; maxConnections?: number; sessionSettings?: SessionSettings }
  /**
   * dataDir undefined keeps the database in memory (tests); loadDataDir starts it from a dump of
   * another one's data directory (dumpDataDir), as the API tests start from one seeded template.
   */
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob; sessionSettings?: SessionSettings };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // While the database is down, a request waits for a reconnection attempt before it is
      // refused (503, database-unavailable.ts). The driver's own backoff grows to 20 s per
      // attempt, and a host that drops packets takes connect_timeout (30 s by default): a
      // clinician would wait 30 to 45 s for each refusal. Here attempts are at most 2 s apart
      // (with jitter, so that servers do not reconnect in step), and one gives up after 10 s.
      backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 2),
      connect_timeout: 10,
      // Startup parameters: each pooled connection, whenever it is (re)opened, has them.
      connection: options.sessionSettings ?? {},
    });
    const db = drizzlePostgres({ client, schema }) as unknown as Database;
    // The lock is a session's: one reserved connection takes it, runs everything, releases it.
    const startUp = async <T>(afterMigrations: () => Promise<T>): Promise<T> => {
      const lockConnection = await client.reserve();
      try {
        await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        try {
          await migratePostgres(drizzlePostgres({ client, schema }), { migrationsFolder });
          return await afterMigrations();
        } finally {
          await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
        }
      } finally {
        lockConnection.release();
      }
    };
    return {
      db,
      kind: "postgres",
      notifications: {
        async listen(channel, onPayload) {
          const { unlisten } = await client.listen(channel, onPayload);
          return unlisten;
        },
        async notify(channel, payload) {
          await client.notify(channel, payload);
        },
      },
      migrate: () => startUp(async () => {}),
      startUp,
      startMaintenance: async () => {},
      bulkTransaction: (mode, work) => postgresBulkTransaction(client, mode, work),
      close: () => client.end({ timeout: 5 }),
    };
  }
  // Readable by the server's user alone (0700): the database holds every participant's data.
  if (options.dataDir !== undefined) await makePrivateDir(options.dataDir);
  // One process at a time on a data directory (the server, or the clinro command): see pglite-lock.ts.
  const unlock = options.dataDir !== undefined ? await lockPgliteDataDir(options.dataDir) : async () => {};
  // Loaded only here: PGlite's WebAssembly build takes tens of megabytes that a server or command
  // on PostgreSQL never needs (the export command's memory).
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all(
    [
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite/contrib/pg_trgm"),
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ],
  );
  // pg_trgm backs the participant search indexes; PostgreSQL ships it, PGlite loads it here.
  // (The one-object form: with an undefined data directory, new PGlite(dir, options) drops options.)
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  try {
    await client.waitReady;
    // PGlite is one connection: its session settings are set once, here.
    for (const [name, value] of Object.entries(options.sessionSettings ?? {})) {
      await client.query("select set_config($1, $2, false)", [name, value]);
    }
  } catch (error) {
    await unlock();
    throw error;
  }
  const pgliteDb = drizzlePglite({ client, schema });
  let analyzeTimer: NodeJS.Timeout | undefined;
  return {
    db: pgliteDb as unknown as Database,
    kind: "pglite",
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    async startUp(afterMigrations) {
      await migratePglite(pgliteDb, { migrationsFolder });
      return afterMigrations();
    },
    async startMaintenance() {
      await client.exec("analyze");
      analyzeTimer ??= setInterval(() => {
        client.exec("analyze").catch(() => {
          // Closed meanwhile, or busy: the next round tries again.
        });
      }, PGLITE_ANALYZE_INTERVAL_MS);
      analyzeTimer.unref();
    },
    dumpDataDir: () => client.dumpDataDir("none"),
    bulkTransaction: (mode, work) =>
      pgliteBulkTransaction((callback) => client.transaction(callback), mode, work),
    close: async () => {
      clearInterval(analyzeTimer);
      try {
        await client.close();
      } finally {
        await unlock();
      }
    },
  };
}

export async function isDatabaseReachable(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

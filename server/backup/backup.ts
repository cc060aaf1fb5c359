/**
 * `clinro backup FILE` and `clinro restore FILE`: the whole database (uploaded files included,
 * since their bytes are in it) as one engine-neutral file, so a backup of the embedded PGlite
 * database restores into PostgreSQL and back.
 *
 * The file is gzip'ed text, one JSON document a line:
 *
 *   {"format":"clinro-backup","version":1,"created_at":...,"engine":...,"migrations":{...},"tables":[...]}
 *   {"table":"users"}              then the table's rows, each line a JSON array of rows as
 *   [{"id":1,...},{"id":2,...}]    PostgreSQL's row_to_json wrote them (a file's bytes, bytea,
 *                                  as hex); tables come parents first (foreign keys)
 *   {"end":{"users":2,...}}        the row count of every table: a cut file is refused
 *
 * Rows go from the database to the file and back as PostgreSQL's own JSON text: the program
 * never parses them, so nothing is lost to JavaScript numbers or dates. Every table is read in
 * one REPEATABLE READ, read-only transaction: a consistent snapshot while the server runs
 * (PostgreSQL; PGlite serves one process, so its server must be stopped first).
 *
 * A restore goes only into an empty database at the same migration level as the backup: it
 * migrates, checks every table is empty, then in one transaction inserts every table with its
 * triggers off (so the audit trail comes back as it was, neither re-recorded nor appended to),
 * in foreign-key order, resets the identity sequences, and checks each table's row count
 * against the file's. Anything wrong rolls it all back: the database stays empty.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Database, type DatabaseHandle, type Transaction } from "../db/client.ts";

export const BACKUP_FORMAT = "clinro-backup";
export const BACKUP_VERSION = 1;

/** What a user must read: a file that is no backup, a database that is not empty... */
export class BackupError extends Error {}

type Executor = Database | Transaction;
type Row = Record<string, unknown>;

const rows = <T extends Row>(db: Executor, statement: SQL) => executeRows<T>(db, statement);

const quoted = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/** The application's tables (the current schema's base tables), by name. */
export async function applicationTables(db: Executor): Promise<string[]> {
  const list = await rows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  return list.map((row) => row.name);
}

export async function tableRowCounts(db: Executor): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await applicationTables(db)) {
    const [row] = await rows<{ count: number }>(db, sql`select count(*)::int as count from ${quoted(table)}`);
    counts[table] = Number(row!.count);
  }
  return counts;
}

export type MigrationLevel = { count: number; last: number };

/** How far the database is migrated: drizzle's record of the migrations applied. */
async function migrationLevel(db: Executor): Promise<MigrationLevel> {
  const [row] = await rows<{ count: number; last: string | number | null }>(
    db,
    sql`select count(*)::int as count, max(created_at) as last from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row?.count ?? 0), last: Number(row?.last ?? 0) };
}

/** Primary-key columns of a table, for reading its rows in a stable order. */
async function primaryKeyColumns(db: Executor, table: string): Promise<string[]> {
  const list = await rows<{ name: string }>(
    db,
    sql`select a.attname as name from pg_index i
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = ${table}::regclass and i.indisprimary order by k.ord`,
  );
  return list.map((row) => row.name);
}

/** Tables with a bytea column (files) are read a few rows at a time, others in larger batches. */
async function hasBinaryColumn(db: Executor, table: string) {
  const list = await rows<{ one: number }>(
    db,
    sql`select 1 as one from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and data_type = 'bytea' limit 1`,
  );
  return list.length > 0;
}

export type BackupSummary = { tables: number; rows: number; counts: Record<string, number> };

/** Writes the whole database to `file` (which must not exist yet; created readable by its owner only). */
export async function writeBackup(handle: DatabaseHandle, file: string): Promise<BackupSummary> {
  const output = createGzip();
  const sink = createWriteStream(file, { flags: "wx", mode: 0o600 });
  await once(sink, "open");
  const written = pipeline(output, sink);
  const writeLine = async (line: string) => {
    if (!output.write(`${line}\n`)) await once(output, "drain");
  };
  try {
    const counts = await handle.db.transaction(
      async (tx) => {
        // Parents before children: a restore inserts each table as soon as it is read.
        const tables = await foreignKeyOrder(tx, await applicationTables(tx));
        await writeLine(
          JSON.stringify({
            format: BACKUP_FORMAT,
            version: BACKUP_VERSION,
            created_at: new Date().toISOString(),
            engine: handle.kind,
            migrations: await migrationLevel(tx),
            tables,
          }),
        );
        const tableCounts: Record<string, number> = {};
        for (const table of tables) {
          await writeLine(JSON.stringify({ table }));
          const order = (await primaryKeyColumns(tx, table)).map(quoted);
          const batch = (await hasBinaryColumn(tx, table)) ? 1 : 500;
          await tx.execute(
            sql`declare clinro_backup no scroll cursor for
                select row_to_json(t)::text as json from ${quoted(table)} t
                ${order.length ? sql`order by ${sql.join(order, sql`, `)}` : sql``}`,
          );
          let count = 0;
          for (;;) {
            const fetched = await rows<{ json: string }>(
              tx,
              sql`fetch forward ${sql.raw(String(batch))} from clinro_backup`,
            );
            if (fetched.length === 0) break;
            await writeLine(`[${fetched.map((row) => row.json).join(",")}]`);
            count += fetched.length;
          }
          await tx.execute(sql`close clinro_backup`);
          tableCounts[table] = count;
        }
        await writeLine(JSON.stringify({ end: tableCounts }));
        return tableCounts;
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    output.end();
    await written;
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return { tables: Object.keys(counts).length, rows: total, counts };
  } catch (error) {
    output.destroy();
    await written.catch(() => {});
    throw error;
  }
}

/** Tables ordered so that every table comes after the tables its foreign keys point at. */
async function foreignKeyOrder(db: Executor, tables: string[]): Promise<string[]> {
  const links = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c where c.contype = 'f'
        and c.connamespace = (select oid from pg_namespace where nspname = current_schema())`,
  );
  const unquote = (name: string) => name.replace(/^"(.*)"$/, "$1");
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const link of links) {
    const child = unquote(link.child);
    const parent = unquote(link.parent);
    if (child !== parent) parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of parents.get(table) ?? []) visit(parent, path);
    path.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** Columns a restore writes: all but generated ones (the database computes those). */
async function writableColumns(db: Executor, table: string): Promise<string[]> {
  const list = await rows<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`,
  );
  return list.map((row) => row.name);
}

async function resetSequences(tx: Transaction) {
  const columns = await rows<{ table_name: string; column_name: string }>(
    tx,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema()
        and (is_identity = 'YES' or column_default like 'nextval(%')`,
  );
  for (const column of columns) {
    const table = quoted(column.table_name);
    const name = quoted(column.column_name);
    await tx.execute(
      sql`select setval(pg_get_serial_sequence(${`"${column.table_name.replaceAll('"', '""')}"`}, ${column.column_name}),
          coalesce(max(${name}), 0) + 1, false) from ${table}`,
    );
  }
}

type Header = {
  format: string;
  version: number;
  created_at: string;
  engine: string;
  migrations: MigrationLevel;
  tables: string[];
};

function parseHeader(line: string | undefined, file: string): Header {
  let header: Partial<Header> | undefined;
  try {
    header = line === undefined ? undefined : (JSON.parse(line) as Partial<Header>);
  } catch {
    header = undefined;
  }
  if (header?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a ClinRO backup.`);
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(
      `${file} is a backup of format version ${header.version}; this version of ClinRO reads version ${BACKUP_VERSION}.`,
    );
  }
  return header as Header;
}

export type RestoreSummary = {
  tables: number;
  rows: number;
  counts: Record<string, number>;
  createdAt: string;
  engine: string;
};

/**
 * Restores `file` into the database, which must be empty (migrations applied, no rows). The
 * handle's migrate() is run first.
 */
export async function restoreBackup(handle: DatabaseHandle, file: string): Promise<RestoreSummary> {
  const input = createReadStream(file);
  await once(input, "open").catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file}: ${error.message}`);
  });
  const gunzip = createGunzip();
  const lines = createInterface({ input: Readable.from(input.pipe(gunzip)), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async () => {
    try {
      const { value, done } = await iterator.next();
      return done ? undefined : (value as string);
    } catch (error) {
      throw new BackupError(`${file} is not a complete gzip file: ${(error as Error).message}`);
    }
  };
  try {
    const header = parseHeader(await next(), file);
    await handle.migrate();
    const level = await migrationLevel(handle.db);
    if (level.count !== header.migrations.count || level.last !== header.migrations.last) {
      throw new BackupError(
        `${file} was made at migration level ${header.migrations.count} and this ClinRO is at ${level.count}: ` +
          "restore it with the ClinRO version that made it, then upgrade.",
      );
    }
    const tables = await applicationTables(handle.db);
    const unknown = header.tables.filter((table) => !tables.includes(table));
    if (unknown.length > 0)
      throw new BackupError(`${file} holds tables this database lacks: ${unknown.join(", ")}.`);
    const counts = await tableRowCounts(handle.db);
    const filled = Object.entries(counts).filter(([, count]) => count > 0);
    if (filled.length > 0) {
      throw new BackupError(
        `The database is not empty (${filled.map(([table, count]) => `${table}: ${count} rows`).join(", ")}); ` +
          "a backup is restored only into an empty database. Nothing was changed.",
      );
    }

    const restored = await handle.db.transaction(async (tx) => {
      for (const table of tables) await tx.execute(sql`alter table ${quoted(table)} disable trigger user`);
      const restoredCounts: Record<string, number> = {};
      const columnsOf = new Map<string, SQL>();
      for (const table of tables) {
        columnsOf.set(table, sql.join((await writableColumns(tx, table)).map(quoted), sql`, `));
      }
      // A table's rows are inserted once every table it points at is in: the file lists parents
      // first, so each table goes in as soon as it is read (a file in another order would be
      // held in memory until its parents come).
      const order = await foreignKeyOrder(tx, tables);
      const pending = new Map<string, string[]>();
      const done = new Set<string>();
      const insert = async (table: string, batch: string) => {
        const columns = columnsOf.get(table)!;
        const result = await rows<{ count: number }>(
          tx,
          sql`with inserted as (
                insert into ${quoted(table)} (${columns}) overriding system value
                select ${columns} from json_populate_recordset(null::${quoted(table)}, ${batch}::json)
                returning 1)
              select count(*)::int as count from inserted`,
        );
        restoredCounts[table] = (restoredCounts[table] ?? 0) + Number(result[0]!.count);
      };
      const ready = (table: string) =>
        order.slice(0, order.indexOf(table)).every((parent) => done.has(parent));
      /** Tables whose rows were all read. */
      const complete = new Set<string>();
      const flush = async () => {
        for (const table of order) {
          if (done.has(table) || !complete.has(table) || !ready(table)) continue;
          for (const batch of pending.get(table)!) await insert(table, batch);
          pending.delete(table);
          done.add(table);
        }
      };
      let current: string | undefined;
      let end: Record<string, number> | undefined;
      for (;;) {
        const line = await next();
        if (line === undefined) break;
        if (line.startsWith("[")) {
          if (current === undefined) throw new BackupError(`${file} has rows before any table.`);
          pending.get(current)!.push(line);
          continue;
        }
        if (current !== undefined) complete.add(current);
        await flush();
        const marker = JSON.parse(line) as { table?: string; end?: Record<string, number> };
        if (marker.end) {
          end = marker.end;
          break;
        }
        if (typeof marker.table !== "string" || !tables.includes(marker.table)) {
          throw new BackupError(`${file} names an unknown table: ${String(marker.table)}.`);
        }
        if (pending.has(marker.table) || done.has(marker.table)) {
          throw new BackupError(`${file} lists table ${marker.table} twice.`);
        }
        current = marker.table;
        pending.set(current, []);
      }
      if (!end) throw new BackupError(`${file} is cut short (no end line): nothing was restored.`);
      for (const table of tables) {
        if (!pending.has(table) && !done.has(table)) pending.set(table, []);
        complete.add(table);
      }
      await flush();
      for (const table of header.tables) {
        if ((restoredCounts[table] ?? 0) !== end[table]) {
          throw new BackupError(
            `${file}: table ${table} has ${restoredCounts[table] ?? 0} rows, the backup says ${end[table]}; nothing was restored.`,
          );
        }
      }
      await resetSequences(tx);
      for (const table of tables) await tx.execute(sql`alter table ${quoted(table)} enable trigger user`);
      return restoredCounts;
    });
    const total = Object.values(restored).reduce((sum, count) => sum + count, 0);
    return {
      tables: header.tables.length,
      rows: total,
      counts: restored,
      createdAt: header.created_at,
      engine: header.engine,
    };
  } finally {
    lines.close();
    input.destroy();
  }
}

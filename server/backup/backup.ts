/**
 * `clinro backup FILE` and `clinro restore FILE`: the whole database (uploaded files included,
 * since their bytes are in it) as one engine-neutral file, so a backup of the embedded PGlite
 * database restores into PostgreSQL and back.
 *
 * The file is gzip'ed text, a line at a time (format version 2):
 *
 *   {"format":"clinro-backup","version":2,"created_at":...,"engine":...,"migrations":{...},"tables":[...]}
 *   {"table":"users","columns":["id",...]}   then the table's rows in PostgreSQL's COPY text
 *   1\tadmin@site.test\t...                  format, a row a line (dates ISO in UTC, a file's
 *   \.                                       bytes, bytea, as hex), ended by a line "\."; tables
 *                                            come parents first (foreign keys)
 *   {"end":{"users":2,...}}                  the row count of every table: a cut file is refused
 *
 * Rows go from the database to the file and back as PostgreSQL's own text, by COPY, the way
 * pg_dump moves them: the program never parses a row, so nothing is lost to JavaScript numbers or
 * dates, and a row costs what pg_dump's does. Every table is read in one REPEATABLE READ,
 * read-only transaction: a consistent snapshot while the server runs (PostgreSQL; PGlite serves
 * one process, so its server must be stopped first). Version 1 files (a JSON array of rows a
 * line, as row_to_json wrote them) are still restored.
 *
 * A restore goes only into an empty database at the same migration level as the backup: it
 * migrates, checks every table is empty, then in one transaction loads every table with its
 * triggers off (so the audit trail comes back as it was, neither re-recorded nor appended to),
 * in foreign-key order (secondary indexes and foreign keys made again once the rows are in, as
 * pg_restore does), resets the identity sequences, and checks each table's row count against the
 * file's. Anything wrong rolls it all back: the database stays empty.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import { sql, type SQL } from "drizzle-orm";
import { recordAuditCheckpoint, type AuditHead } from "../audit/audit-checkpoints.ts";
import type { BulkSession } from "../db/bulk-session.ts";
import { executeRows, type Database, type DatabaseHandle, type Transaction } from "../db/client.ts";

export const BACKUP_FORMAT = "clinro-backup";
export const BACKUP_VERSION = 2;
/** Versions a restore reads: 1 wrote rows as JSON, 2 as COPY text. */
const READABLE_VERSIONS = [1, 2];
/** Ends a table's rows, as in COPY's own text format (a row holding "\." is written "\\."). */
const END_OF_ROWS = "\\.";

/** What a user must read: a file that is no backup, a database that is not empty... */
export class BackupError extends Error {}

type Row = Record<string, unknown>;
/** Runs one statement and answers its rows: on a database, or inside a bulk transaction. */
type Query = <T extends Row>(statement: SQL) => Promise<T[]>;

const queryOn =
  (db: Database | Transaction): Query =>
  (statement) =>
    executeRows(db, statement);

const quoted = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/** The application's tables (the current schema's base tables), by name. */
async function tableNames(query: Query): Promise<string[]> {
  const list = await query<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  return list.map((row) => row.name);
}

async function countRows(query: Query): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tableNames(query)) {
    const [row] = await query<{ count: number }>(sql`select count(*)::int as count from ${quoted(table)}`);
    counts[table] = Number(row!.count);
  }
  return counts;
}

export const tableRowCounts = (db: Database | Transaction) => countRows(queryOn(db));

export type MigrationLevel = { count: number; last: number };

/** How far the database is migrated: drizzle's record of the migrations applied. */
async function migrationLevel(query: Query): Promise<MigrationLevel> {
  const [row] = await query<{ count: number; last: string | number | null }>(
    sql`select count(*)::int as count, max(created_at) as last from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row?.count ?? 0), last: Number(row?.last ?? 0) };
}

/** Primary-key columns of a table, for reading its rows in a stable order. */
async function primaryKeyColumns(query: Query, table: string): Promise<string[]> {
  const list = await query<{ name: string }>(
    sql`select a.attname as name from pg_index i
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = ${table}::regclass and i.indisprimary order by k.ord`,
  );
  return list.map((row) => row.name);
}

/** Columns a backup holds and a restore writes: all but generated ones (the database computes those). */
async function writableColumns(query: Query, table: string): Promise<string[]> {
  const list = await query<{ name: string }>(
    sql`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`,
  );
  return list.map((row) => row.name);
}

/** The tables each table's foreign keys point at (itself left out). */
async function foreignKeyParents(query: Query, tables: string[]): Promise<Map<string, Set<string>>> {
  const links = await query<{ child: string; parent: string }>(
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
  return parents;
}

/** Tables ordered so that every table comes after the tables its foreign keys point at. */
function foreignKeyOrder(tables: string[], parents: Map<string, Set<string>>): string[] {
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

/** Newlines in a chunk of COPY text: one a row (a newline inside a value is written "\n"). */
function countLines(chunk: Uint8Array): number {
  let count = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count += 1;
  return count;
}

export type BackupSummary = {
  tables: number;
  rows: number;
  counts: Record<string, number>;
  /** The audit chain's head as checkpointed for this backup (also in the file's header). */
  auditHead: AuditHead;
};

/** Writes the whole database to `file` (which must not exist yet; created readable by its owner only). */
export async function writeBackup(handle: DatabaseHandle, file: string): Promise<BackupSummary> {
  const output = createGzip();
  const sink = createWriteStream(file, { flags: "wx", mode: 0o600 });
  await once(sink, "open");
  const written = pipeline(output, sink);
  const write = async (data: string | Uint8Array) => {
    if (!output.write(data)) await once(output, "drain");
  };
  try {
    // Checkpointed first, so the snapshot holds the checkpoint, and written into the header: a
    // copy of the audit chain's head kept off the database (audit-checkpoints.ts).
    const auditHead = await recordAuditCheckpoint(handle.db, "backup");
    const counts = await handle.bulkTransaction("snapshot", async (session) => {
      const query = session.rows;
      const names = await tableNames(query);
      // Parents before children: a restore loads each table as soon as it is read.
      const tables = foreignKeyOrder(names, await foreignKeyParents(query, names));
      await write(
        `${JSON.stringify({
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          created_at: new Date().toISOString(),
          engine: handle.kind,
          migrations: await migrationLevel(query),
          tables,
          audit_head: { last_id: auditHead.lastId, last_hash: auditHead.lastHash },
        })}\n`,
      );
      const tableCounts: Record<string, number> = {};
      for (const table of tables) {
        const columns = await writableColumns(query, table);
        await write(`${JSON.stringify({ table, columns })}\n`);
        let count = 0;
        for await (const chunk of session.copyOut(table, columns, await primaryKeyColumns(query, table))) {
          count += countLines(chunk);
          await write(chunk);
        }
        await write(`${END_OF_ROWS}\n`);
        tableCounts[table] = count;
      }
      await write(`${JSON.stringify({ end: tableCounts })}\n`);
      return tableCounts;
    });
    output.end();
    await written;
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return { tables: Object.keys(counts).length, rows: total, counts, auditHead };
  } catch (error) {
    output.destroy();
    await written.catch(() => {});
    throw error;
  }
}

async function resetSequences(query: Query) {
  const columns = await query<{ table_name: string; column_name: string }>(
    sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema()
        and (is_identity = 'YES' or column_default like 'nextval(%')`,
  );
  for (const column of columns) {
    const table = quoted(column.table_name);
    const name = quoted(column.column_name);
    await query(
      sql`select setval(pg_get_serial_sequence(${`"${column.table_name.replaceAll('"', '""')}"`}, ${column.column_name}),
          coalesce(max(${name}), 0) + 1, false) from ${table}`,
    );
  }
}

/**
 * Drops the secondary indexes and the foreign keys, and answers what makes them again: a restore
 * loads the rows first and builds each index once, and checks each foreign key in one pass, as
 * pg_restore does, instead of updating every index and checking every reference row by row. In
 * the restore's transaction, so a failure brings them back with the rollback.
 */
async function setAsideIndexesAndForeignKeys(query: Query): Promise<() => Promise<void>> {
  const indexes = await query<{ name: string; definition: string }>(
    sql`select quote_ident(c.relname) as name, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  );
  const foreignKeys = await query<{ table_name: string; name: string; definition: string }>(
    sql`select c.conrelid::regclass::text as table_name, quote_ident(c.conname) as name,
        pg_get_constraintdef(c.oid) as definition
        from pg_constraint c where c.contype = 'f'
        and c.connamespace = (select oid from pg_namespace where nspname = current_schema())`,
  );
  for (const key of foreignKeys)
    await query(sql.raw(`alter table ${key.table_name} drop constraint ${key.name}`));
  for (const index of indexes) await query(sql.raw(`drop index ${index.name}`));
  return async () => {
    for (const index of indexes) await query(sql.raw(index.definition));
    for (const key of foreignKeys) {
      await query(sql.raw(`alter table ${key.table_name} add constraint ${key.name} ${key.definition}`));
    }
  };
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
  if (!READABLE_VERSIONS.includes(header.version as number)) {
    throw new BackupError(
      `${file} is a backup of format version ${header.version}; this version of ClinRO reads versions ${READABLE_VERSIONS.join(" and ")}.`,
    );
  }
  return header as Header;
}

type Marker = { table?: string; columns?: unknown; end?: Record<string, number> };

function parseMarker(line: string, file: string): Marker {
  try {
    return JSON.parse(line) as Marker;
  } catch {
    throw new BackupError(`${file} is damaged: a line where a table should start is not one.`);
  }
}

/** What restoring one file needs: where it reads, what it writes to, what the target holds. */
type RestoreContext = {
  file: string;
  session: BulkSession;
  next: () => Promise<string | undefined>;
  tables: string[];
  parents: Map<string, Set<string>>;
  /** Rows loaded so far, by table. */
  counts: Record<string, number>;
};

/** Version 2: each table's COPY text straight into COPY, parents first. Answers the end line's counts. */
async function restoreCopyText(context: RestoreContext): Promise<Record<string, number> | undefined> {
  const { file, session, next, tables, parents, counts } = context;
  const done = new Set<string>();
  for (;;) {
    const line = await next();
    if (line === undefined) return undefined;
    const marker = parseMarker(line, file);
    if (marker.end) return marker.end;
    const table = marker.table;
    if (typeof table !== "string" || !tables.includes(table)) {
      throw new BackupError(`${file} names an unknown table: ${String(table)}.`);
    }
    if (done.has(table)) throw new BackupError(`${file} lists table ${table} twice.`);
    const missingParent = [...(parents.get(table) ?? [])].find((parent) => !done.has(parent));
    if (missingParent) {
      throw new BackupError(`${file} lists table ${table} before ${missingParent}, which it refers to.`);
    }
    const writable = await writableColumns(session.rows, table);
    const columns = marker.columns;
    if (
      !Array.isArray(columns) ||
      columns.some((column) => typeof column !== "string" || !writable.includes(column))
    ) {
      throw new BackupError(`${file}: the columns of table ${table} are not this database's.`);
    }
    let rows = 0;
    let cut = false;
    // Lines go to COPY in batches: one string for many rows costs far less than one a row.
    async function* rowLines() {
      let batch: string[] = [];
      let size = 0;
      for (;;) {
        const row = await next();
        if (row === undefined) {
          cut = true;
          break;
        }
        if (row === END_OF_ROWS) break;
        rows += 1;
        batch.push(row, "\n");
        size += row.length + 1;
        if (size >= 256 * 1024) {
          yield batch.join("");
          batch = [];
          size = 0;
        }
      }
      if (batch.length > 0) yield batch.join("");
    }
    try {
      await session.copyIn(table, columns as string[], rowLines());
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(
        `${file}: table ${table} could not be restored (${(error as Error).message}); nothing was restored.`,
      );
    }
    if (cut) return undefined;
    counts[table] = rows;
    done.add(table);
  }
}

/**
 * Version 1: a JSON array of rows a line, inserted through json_populate_recordset; a table's
 * rows wait until every table it points at is in (files list parents first, so none wait).
 */
async function restoreJsonRows(context: RestoreContext): Promise<Record<string, number> | undefined> {
  const { file, session, next, tables, parents, counts } = context;
  const columnsOf = new Map<string, SQL>();
  for (const table of tables) {
    columnsOf.set(table, sql.join((await writableColumns(session.rows, table)).map(quoted), sql`, `));
  }
  const order = foreignKeyOrder(tables, parents);
  const pending = new Map<string, string[]>();
  const done = new Set<string>();
  const insert = async (table: string, batch: string) => {
    const columns = columnsOf.get(table)!;
    const result = await session.rows<{ count: number }>(
      sql`with inserted as (
            insert into ${quoted(table)} (${columns}) overriding system value
            select ${columns} from json_populate_recordset(null::${quoted(table)}, ${batch}::json)
            returning 1)
          select count(*)::int as count from inserted`,
    );
    counts[table] = (counts[table] ?? 0) + Number(result[0]!.count);
  };
  const ready = (table: string) => order.slice(0, order.indexOf(table)).every((parent) => done.has(parent));
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
  for (;;) {
    const line = await next();
    if (line === undefined) return undefined;
    if (line.startsWith("[")) {
      if (current === undefined) throw new BackupError(`${file} has rows before any table.`);
      pending.get(current)!.push(line);
      continue;
    }
    if (current !== undefined) complete.add(current);
    await flush();
    const marker = parseMarker(line, file);
    if (marker.end) {
      for (const table of tables) {
        if (!pending.has(table) && !done.has(table)) pending.set(table, []);
        complete.add(table);
      }
      await flush();
      return marker.end;
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
    const onDatabase = queryOn(handle.db);
    const level = await migrationLevel(onDatabase);
    if (level.count !== header.migrations.count || level.last !== header.migrations.last) {
      throw new BackupError(
        `${file} was made at migration level ${header.migrations.count} and this ClinRO is at ${level.count}: ` +
          "restore it with the ClinRO version that made it, then upgrade.",
      );
    }
    const tables = await tableNames(onDatabase);
    const unknown = header.tables.filter((table) => !tables.includes(table));
    if (unknown.length > 0)
      throw new BackupError(`${file} holds tables this database lacks: ${unknown.join(", ")}.`);
    const filled = Object.entries(await countRows(onDatabase)).filter(([, count]) => count > 0);
    if (filled.length > 0) {
      throw new BackupError(
        `The database is not empty (${filled.map(([table, count]) => `${table}: ${count} rows`).join(", ")}); ` +
          "a backup is restored only into an empty database. Nothing was changed.",
      );
    }

    const restored = await handle.bulkTransaction("write", async (session) => {
      const query = session.rows;
      for (const table of tables) await query(sql`alter table ${quoted(table)} disable trigger user`);
      const context: RestoreContext = {
        file,
        session,
        next,
        tables,
        parents: await foreignKeyParents(query, tables),
        counts: {},
      };
      const rebuild = await setAsideIndexesAndForeignKeys(query);
      const end = header.version === 1 ? await restoreJsonRows(context) : await restoreCopyText(context);
      if (!end) throw new BackupError(`${file} is cut short (no end line): nothing was restored.`);
      try {
        await rebuild();
      } catch (error) {
        throw new BackupError(
          `${file}: its rows do not hold together (${(error as Error).message}); nothing was restored.`,
        );
      }
      for (const table of header.tables) {
        if ((context.counts[table] ?? 0) !== end[table]) {
          throw new BackupError(
            `${file}: table ${table} has ${context.counts[table] ?? 0} rows, the backup says ${end[table]}; nothing was restored.`,
          );
        }
      }
      await resetSequences(query);
      for (const table of tables) await query(sql`alter table ${quoted(table)} enable trigger user`);
      return context.counts;
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

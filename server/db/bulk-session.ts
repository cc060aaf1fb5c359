/**
 * One transaction that moves a whole table at a time, in PostgreSQL's COPY text format, for
 * `clinro backup` and `clinro restore`. COPY is how pg_dump and pg_restore move rows: one line a
 * row, no column names repeated, nothing parsed on the way; row by row through SQL it costs
 * several times as much.
 *
 * Each engine speaks COPY differently: postgres.js streams it both ways over the connection of
 * its transaction; PGlite copies a table to or from a Blob ('/dev/blob'), so a table's rows are
 * read into memory at once (the embedded database holds one site's data), and written in
 * chunks of COPY_IN_CHUNK_BYTES.
 */
import type { Transaction as PgliteTransaction } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Sql, TransactionSql } from "postgres";

export type BulkSession = {
  /** The rows of one statement, in this transaction. */
  rows<Row extends Record<string, unknown>>(statement: SQL): Promise<Row[]>;
  /** `columns` of every row of `table`, ordered by `orderBy`, as COPY text (a row a line). */
  copyOut(table: string, columns: string[], orderBy: string[]): AsyncIterable<Uint8Array>;
  /** Loads COPY text (whole lines, each ending in a newline) into `columns` of `table`. */
  copyIn(table: string, columns: string[], lines: AsyncIterable<string>): Promise<void>;
};

/** "snapshot": repeatable read, read only (a backup); "write": a transaction that restores. */
export type BulkMode = "snapshot" | "write";

export const COPY_IN_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * What both ends of a backup agree on, so that COPY text reads back the same on another engine
 * or server: ISO dates in UTC, floats to the last digit, bytea as hex (pg_dump sets the same).
 */
const PORTABLE_TEXT_SETTINGS = [
  "set local datestyle = 'ISO, YMD'",
  "set local timezone = 'UTC'",
  "set local intervalstyle = 'postgres'",
  "set local extra_float_digits = 3",
  "set local bytea_output = 'hex'",
];

const dialect = new PgDialect();

export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function postgresBulkTransaction<T>(
  client: Sql,
  mode: BulkMode,
  work: (session: BulkSession) => Promise<T>,
): Promise<T> {
  const options = mode === "snapshot" ? "isolation level repeatable read read only" : "read write";
  return (await client.begin(options, async (tx: TransactionSql) => {
    for (const setting of PORTABLE_TEXT_SETTINGS) await tx.unsafe(setting);
    return work({
      async rows<Row extends Record<string, unknown>>(statement: SQL) {
        const query = dialect.sqlToQuery(statement);
        return (await tx.unsafe(query.sql, query.params as never[])) as unknown as Row[];
      },
      async *copyOut(table, columns, orderBy) {
        // The tagged form: postgres.js quotes identifiers given as sql(name); its unsafe() form
        // of COPY does not start streaming.
        const order = orderBy.length > 0 ? tx`order by ${tx(orderBy)}` : tx``;
        const stream = await tx`copy (select ${tx(columns)} from ${tx(table)} ${order}) to stdout`.readable();
        try {
          for await (const chunk of stream) yield chunk as Uint8Array;
        } finally {
          // postgres.js pauses its socket when the stream's buffer is full and resumes it only when
          // the stream asks for more; if COPY's end came in the same packet, the stream has ended
          // and never asks, and the connection's next query waits forever (porsager/postgres#499).
          // The stream's own read function resumes the socket: call it once the copy is over.
          stream._read(0);
        }
      },
      async copyIn(table, columns, lines) {
        const stream = await tx`copy ${tx(table)} (${tx(columns)}) from stdin`.writable();
        const finished = new Promise<void>((resolve, reject) => {
          stream.on("finish", resolve);
          stream.on("error", reject);
        });
        try {
          for await (const line of lines) {
            if (!stream.write(line)) {
              await new Promise<void>((resolve, reject) => {
                stream.once("drain", resolve);
                stream.once("error", reject);
              });
            }
          }
          stream.end();
        } catch (error) {
          stream.destroy(error as Error);
          await finished.catch(() => {});
          throw error;
        }
        await finished;
      },
    });
  })) as T;
}

export async function pgliteBulkTransaction<T>(
  transaction: <R>(callback: (tx: PgliteTransaction) => Promise<R>) => Promise<R>,
  mode: BulkMode,
  work: (session: BulkSession) => Promise<T>,
): Promise<T> {
  return transaction(async (tx) => {
    if (mode === "snapshot") await tx.exec("set transaction isolation level repeatable read read only");
    for (const setting of PORTABLE_TEXT_SETTINGS) await tx.exec(setting);
    const columnList = (columns: string[]) => columns.map(quoteIdentifier).join(", ");
    return work({
      async rows<Row extends Record<string, unknown>>(statement: SQL) {
        const query = dialect.sqlToQuery(statement);
        return (await tx.query<Row>(query.sql, query.params)).rows;
      },
      async *copyOut(table, columns, orderBy) {
        const order = orderBy.length > 0 ? ` order by ${columnList(orderBy)}` : "";
        const result = await tx.query(
          `copy (select ${columnList(columns)} from ${quoteIdentifier(table)}${order}) to '/dev/blob'`,
        );
        if (result.blob) yield new Uint8Array(await result.blob.arrayBuffer());
      },
      async copyIn(table, columns, lines) {
        const statement = `copy ${quoteIdentifier(table)} (${columnList(columns)}) from '/dev/blob'`;
        let chunk: string[] = [];
        let size = 0;
        const load = async () => {
          if (chunk.length === 0) return;
          await tx.query(statement, [], { blob: new Blob(chunk) });
          chunk = [];
          size = 0;
        };
        for await (const line of lines) {
          chunk.push(line);
          size += line.length;
          if (size >= COPY_IN_CHUNK_BYTES) await load();
        }
        await load();
      },
    });
  });
}

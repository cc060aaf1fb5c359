/**
 * The two PostgreSQL roles of a production database (docs/operations.md): the migrations' role
 * owns every table (it runs the migrations, at each server start, as MIGRATION_DATABASE_URL);
 * the server's role (DATABASE_URL) reads and writes the application's tables but may only add
 * to and read the audit trail: owning nothing, it cannot disable the append-only trigger, nor
 * delete, update or truncate audit_log, nor touch the checkpoints of its head (it adds one
 * through clinro_audit_checkpoint(), a SECURITY DEFINER function, only).
 */
import { sql } from "drizzle-orm";
import { executeRows, openDatabase, type Database } from "./client.ts";

/** The role a postgres:// URL signs in as (the URL's user name). */
export function roleOfUrl(url: string): string {
  const name = decodeURIComponent(new URL(url).username);
  if (name === "")
    throw new Error(
      "DATABASE_URL must name its role (postgres://ROLE@host/db) when MIGRATION_DATABASE_URL is set",
    );
  return name;
}

/**
 * Run by the migrations' role after migrating: gives the server's role what it needs and no
 * more, on every table the migrations made (so a new table is covered at the next start).
 * Refuses a server role that owns audit_log: it could switch the trail's protection off.
 */
export async function grantServerRole(owner: Database, serverRole: string) {
  const [audit] = await executeRows<{ owner: string; current: string }>(
    owner,
    sql`select pg_get_userbyid(c.relowner) as owner, current_user as current
        from pg_class c where c.oid = 'audit_log'::regclass`,
  );
  if (audit && audit.owner === serverRole) {
    throw new Error(
      `audit_log belongs to ${serverRole}, the server's role (DATABASE_URL): it could disable the trail's triggers. ` +
        `Give the tables to the migrations' role first: REASSIGN OWNED BY ${serverRole} TO ${audit.current};`,
    );
  }
  const role = sql.identifier(serverRole);
  const schema = sql.identifier(await currentSchema(owner));
  await owner.execute(sql`grant usage on schema ${schema} to ${role}`);
  await owner.execute(sql`grant select, insert, update, delete on all tables in schema ${schema} to ${role}`);
  await owner.execute(sql`grant usage, select on all sequences in schema ${schema} to ${role}`);
  // The trail is added to and read, never changed; its checkpoints are only read.
  await owner.execute(sql`revoke update, delete, truncate on audit_log from ${role}`);
  await owner.execute(sql`revoke insert, update, delete, truncate on audit_checkpoints from ${role}`);
}

async function currentSchema(db: Database) {
  const [row] = await executeRows<{ name: string }>(db, sql`select current_schema() as name`);
  return row!.name;
}

/**
 * For the `clinro` command with two roles: migrates as the owner and grants the server's role,
 * under the start-up lock, as a server start does; the command then runs as the server's role,
 * which may not create the migrations' own table.
 */
export async function migrateForServerRole(ownerUrl: string, serverUrl: string) {
  // Two: startUp holds one for its lock while the migrations run on the other.
  const owner = await openDatabase({ kind: "postgres", url: ownerUrl, maxConnections: 2 });
  try {
    await owner.startUp(() => grantServerRole(owner.db, roleOfUrl(serverUrl)));
  } finally {
    await owner.close();
  }
}

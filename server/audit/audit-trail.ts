/**
 * The audit trail: who changed what, when (server UTC), with the old and new values.
 *
 * Row changes are recorded by the database itself: the clinro_audit trigger on every table
 * (migration 0008; later migrations call `SELECT clinro_attach_audit('table')`) writes one
 * audit_log row per inserted, updated or deleted row, taking the actor from the transaction's
 * `clinro.actor_id` setting, which `withAuditActor` sets. Events that change no row (sign-in,
 * failed sign-in, a refused authorisation, a refused signature) are written by
 * `recordAuditEvent`. audit_log is append-only (a trigger refuses UPDATE, DELETE and TRUNCATE)
 * and hash-chained (see audit-chain.ts for the check).
 *
 * Columns never copied into the values: clinro_audit_redacted_columns() in the migration.
 */
import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";
import { redactUrl } from "../http/log-redaction.ts";

/** Actions written by recordAuditEvent; the triggers write insert, update and delete. */
export type AuditEventAction =
  "sign_in" | "sign_in_failed" | "forbidden" | "signature_refused" | (string & {});

export type AuditEvent = {
  /** Who did it; null when unknown (a failed sign-in) or the system. */
  actorUserId: number | null;
  action: AuditEventAction;
  /** The table and row the event is about, when there is one (e.g. consent_participants). */
  tableName?: string;
  rowKey?: Record<string, unknown>;
  /** What else a reader needs: address, method and path, reason. Never a password. */
  details?: Record<string, unknown>;
};

type Executor = Database | Transaction;

function actorSetting(userId: number | null): string {
  if (userId === null) return "";
  if (!Number.isSafeInteger(userId) || userId < 1) throw new Error(`Not a user id: ${userId}`);
  return String(userId);
}

/**
 * Runs `fn` in a transaction (a savepoint inside one already open) whose writes are audited as
 * made by `userId`. The setting is transaction-local: it ends with the transaction and never
 * leaks to the next user of the pooled connection.
 */
export async function withAuditActor<T>(
  db: Executor,
  userId: number | null,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await setAuditActor(tx as Transaction, userId);
    return fn(tx as Transaction);
  });
}

/**
 * Names the actor of a transaction already open, for writes whose user is known only inside it
 * (a password set through an emailed link). Row changes are audited at commit, so the actor set
 * last is the one recorded.
 */
export async function setAuditActor(tx: Transaction, userId: number | null): Promise<void> {
  await tx.execute(sql`select set_config('clinro.actor_id', ${actorSetting(userId)}, true)`);
}

/**
 * Writes one audit row for an event that changes no row. Answers its chain position (id).
 * It takes the chain's lock at once (row changes take it at commit): call it outside a
 * transaction or as the last statement of one, so the lock is not held while waiting for others.
 */
export async function recordAuditEvent(db: Executor, event: AuditEvent): Promise<number> {
  const [row] = await db
    .insert(auditLog)
    .values({
      actorUserId: event.actorUserId,
      action: event.action,
      tableName: event.tableName ?? null,
      rowKey: event.rowKey ?? null,
      details: event.details ?? null,
    })
    .returning({ id: auditLog.id });
  return row!.id;
}

/** The part of a Fastify request a refused-authorisation row records. */
export type RefusedRequest = {
  method: string;
  url: string;
  ip: string;
  routeOptions?: { url?: string };
  session?: { user: { id: number } };
};

/**
 * Records a 403 answer: who asked (null when not signed in), for what, and why it was refused.
 * The path holds the ids the user asked for, which is what a reviewer needs to see; query values
 * are redacted (server/http/log-redaction.ts).
 */
export function recordForbidden(
  db: Executor,
  request: RefusedRequest,
  refusal: { code?: string; message: string },
) {
  return recordAuditEvent(db, {
    actorUserId: request.session?.user.id ?? null,
    action: "forbidden",
    details: {
      method: request.method,
      // Query values (a search term, a mail address) stay out of the trail, like the log.
      path: redactUrl(request.url),
      route: request.routeOptions?.url ?? null,
      code: refusal.code ?? null,
      message: refusal.message,
      address: request.ip,
    },
  });
}

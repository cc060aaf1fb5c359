/**
 * Idempotent writes. A POST carrying an Idempotency-Key runs its write and stores the key with
 * the user, a hash of the request and the answer, in one transaction. A repeated key gets the
 * stored answer and writes nothing; the same key with another request is a 422.
 *
 * Concurrency: two requests with one key may both run their write, but only one can insert the
 * key row (primary key); the other's insert fails or waits for the first to commit, its
 * transaction rolls back, and it answers with the stored record. That holds across server
 * processes on one PostgreSQL.
 *
 * Audit: the write's transaction carries the user as the audit actor (withAuditActor), so the
 * audit rows its changes leave name who made them.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { withAuditActor } from "../audit/audit-trail.ts";
import type { Database, Transaction } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

export type WriteResult = { statusCode: number; body: unknown };

/** The request's Idempotency-Key, or undefined when it sent none. A malformed key is a 400. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) {
    throw new HttpError(
      400,
      "Idempotency-Key must be 8 to 128 letters, digits or the characters _ . : -",
      "invalid_idempotency_key",
    );
  }
  return key;
}

export function hashRequest(parts: (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) {
    hash.update(typeof part === "string" ? part : Buffer.from(part));
    hash.update("\u0000");
  }
  return hash.digest("hex");
}

/**
 * Who and what one JSON request is, for its idempotency record: the user and key, its method and
 * path, and the hash of its path and its body as sent (request.sentBody, not the body as the
 * schema parsed it: a default the schema fills in must not make a repeat look different).
 */
export function jsonRequestIdentity(request: FastifyRequest, userId: number, key: string | undefined) {
  return {
    userId,
    key,
    method: request.method,
    path: request.url,
    requestHash: hashRequest([request.url, JSON.stringify(request.sentBody)]),
  };
}

class KeyTakenError extends Error {}

async function storedAnswer(db: Database, userId: number, key: string, requestHash: string) {
  const [record] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  if (!record) return undefined;
  if (record.requestHash !== requestHash) {
    throw new HttpError(
      422,
      "This Idempotency-Key was already used for a different request.",
      "idempotency_key_reused",
    );
  }
  return { statusCode: record.statusCode, body: record.responseBody } satisfies WriteResult;
}

/**
 * Runs `write` at most once per (user, key). Without a key the write simply runs.
 * `afterRollback` undoes effects outside the database (a stored file) when the write lost a race.
 */
export async function runIdempotentWrite(
  db: Database,
  options: {
    userId: number;
    key: string | undefined;
    method: string;
    path: string;
    requestHash: string;
    write: (tx: Transaction) => Promise<WriteResult>;
    afterRollback?: () => Promise<void>;
  },
): Promise<WriteResult & { replayed: boolean }> {
  const { userId, key, requestHash } = options;
  if (key === undefined) {
    return { ...(await withAuditActor(db, userId, options.write)), replayed: false };
  }
  const earlier = await storedAnswer(db, userId, key, requestHash);
  if (earlier) return { ...earlier, replayed: true };
  try {
    const result = await withAuditActor(db, userId, async (tx) => {
      const answer = await options.write(tx);
      const inserted = await tx
        .insert(idempotencyKeys)
        .values({
          userId,
          key,
          method: options.method,
          path: options.path,
          requestHash,
          statusCode: answer.statusCode,
          responseBody: answer.body ?? null,
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length === 0) throw new KeyTakenError();
      return answer;
    });
    return { ...result, replayed: false };
  } catch (error) {
    if (!(error instanceof KeyTakenError)) throw error;
    await options.afterRollback?.();
    const winner = await storedAnswer(db, userId, key, requestHash);
    if (!winner)
      throw new HttpError(409, "A request with this Idempotency-Key is in progress.", "in_progress");
    return { ...winner, replayed: true };
  }
}

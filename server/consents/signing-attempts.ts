/**
 * The signature dialog's cap on the server (core/contracts/signing-attempts.ts): each try of a
 * session is counted before its password is checked, in one statement (an upsert that answers
 * the new count), so that tries sent at once are counted one after another and only the first
 * MAX_SIGNING_ATTEMPTS are checked. An accepted password clears the count; the try that reaches
 * the cap revokes the session's token, as the inactivity lock's cap ends the session.
 */
import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { revokedTokens, signingAttempts } from "../db/schema.ts";
import type { SessionClaims } from "../auth/tokens.ts";

type Executor = Database | Transaction;

/** Counts one more try of this session; answers how many it has made since the last accepted one. */
export async function countSigningAttempt(db: Executor, userId: number, claims: SessionClaims) {
  const [row] = await db
    .insert(signingAttempts)
    .values({ jti: claims.jti, userId, attempts: 1, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoUpdate({
      target: signingAttempts.jti,
      set: { attempts: sql`${signingAttempts.attempts} + 1` },
    })
    .returning({ attempts: signingAttempts.attempts });
  return row!.attempts;
}

/** An accepted password: the session's count starts again. */
export async function clearSigningAttempts(db: Executor, jti: string) {
  await db.delete(signingAttempts).where(eq(signingAttempts.jti, jti));
}

/** The cap was reached: the token stops working. */
export async function revokeSession(db: Executor, userId: number, claims: SessionClaims) {
  await db
    .insert(revokedTokens)
    .values({ jti: claims.jti, userId, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoNothing();
}

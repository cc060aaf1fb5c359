/**
 * The sign-in rate limit: failed attempts counted per (username, address) in a fixed window,
 * kept in the database so that several server processes share one count. Unknown and known
 * usernames are counted alike, so the limit reveals nothing about which accounts exist.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { loginAttempts } from "../db/schema.ts";

export type LoginRateLimit = { maxFailures: number; windowSeconds: number };

function attemptKey(username: string, address: string) {
  return `${username.toLowerCase()}|${address}`;
}

export async function isLoginBlocked(
  db: Database,
  limit: LoginRateLimit,
  username: string,
  address: string,
): Promise<boolean> {
  const [row] = await db
    .select()
    .from(loginAttempts)
    .where(eq(loginAttempts.key, attemptKey(username, address)));
  if (!row) return false;
  const windowEnds = row.windowStartedAt.getTime() + limit.windowSeconds * 1000;
  return Date.now() < windowEnds && row.failures >= limit.maxFailures;
}

export async function recordLoginFailure(
  db: Database,
  limit: LoginRateLimit,
  username: string,
  address: string,
) {
  const windowStart = sql`now() - make_interval(secs => ${limit.windowSeconds})`;
  await db
    .insert(loginAttempts)
    .values({ key: attemptKey(username, address), failures: 1, windowStartedAt: new Date() })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStartedAt} < ${windowStart} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginAttempts.windowStartedAt} < ${windowStart} then now() else ${loginAttempts.windowStartedAt} end`,
      },
    });
}

export async function clearLoginFailures(db: Database, username: string, address: string) {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, attemptKey(username, address)));
}

/**
 * The sign-in rate limit, kept in the database so that several server processes share one count.
 * Two counts in a fixed window (LOGIN_WINDOW_S):
 * - per account and address: LOGIN_MAX_FAILURES attempts that fail. Whoever guesses a user's
 *   password from one address blocks that account from that address only: the user signs in
 *   from their own device as before, so knowing a username is not enough to lock its owner out.
 * - per address, all accounts together: LOGIN_MAX_FAILURES_PER_ADDRESS, so that one address
 *   cannot try a few passwords on every account in turn. Attempts the first count already
 *   refused are not added to it (a guesser hammering one account does not also block the other
 *   users behind the same address, a clinic's NAT).
 * No count spans every address: one would let anyone lock a user out everywhere. Guessing from
 * many addresses is slowed by the password hash and the password policy instead.
 *
 * An attempt is counted before its password is checked, in one atomic statement (an upsert
 * answering the new count), and checked only when the count is within the limit: 100 wrong
 * passwords sent at once are 10 checks and 90 refusals, not 100 checks. A successful sign-in
 * gives its attempt back: the account's count starts again, the address's loses that attempt.
 * Unknown and known usernames are counted alike, so the limit reveals nothing about which
 * accounts exist.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { loginAttempts } from "../db/schema.ts";

export type LoginRateLimit = {
  /** Failed attempts per account and address in a window. */
  maxFailures: number;
  windowSeconds: number;
  /** Failed attempts per address, all accounts together: 10 times maxFailures when unset. */
  maxFailuresPerAddress?: number;
};

const accountKey = (username: string, address: string) => `account:${username.toLowerCase()}|${address}`;
const addressKey = (address: string) => `address:${address}`;

/** Adds one attempt to a count (a new window when the last one has passed) and answers the count. */
async function countAttempt(db: Database, limit: LoginRateLimit, key: string): Promise<number> {
  const windowStart = sql`now() - make_interval(secs => ${limit.windowSeconds})`;
  const [row] = await db
    .insert(loginAttempts)
    .values({ key, failures: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures: sql`case when ${loginAttempts.windowStartedAt} < ${windowStart} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginAttempts.windowStartedAt} < ${windowStart} then now() else ${loginAttempts.windowStartedAt} end`,
      },
    })
    .returning({ failures: loginAttempts.failures });
  return row!.failures;
}

/**
 * Counts a sign-in attempt; answers false when it is over a limit (refuse it unchecked), true
 * when its password may be checked.
 */
export async function admitLoginAttempt(
  db: Database,
  limit: LoginRateLimit,
  username: string,
  address: string,
): Promise<boolean> {
  if ((await countAttempt(db, limit, accountKey(username, address))) > limit.maxFailures) return false;
  const perAddress = limit.maxFailuresPerAddress ?? limit.maxFailures * 10;
  return (await countAttempt(db, limit, addressKey(address))) <= perAddress;
}

/** A sign-in with the right password: its attempt was no failure. */
export async function forgiveLoginAttempt(db: Database, username: string, address: string) {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, accountKey(username, address)));
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(eq(loginAttempts.key, addressKey(address)));
}

/**
 * Single-use tokens of emailed links (activation and password reset). The raw token exists only
 * in the mail; the table keeps its SHA-256. A token is usable while unused and unexpired; using
 * it, or issuing a newer one for the same purpose, marks it used.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { STAFF_INVITATION_DAYS } from "../../core/contracts/staff.ts";
import { accountTokens, users } from "../db/schema.ts";

export type AccountTokenPurpose = "activation" | "reset";

/** How long an emailed link works, by purpose. */
export const ACCOUNT_TOKEN_TTL_S: Record<AccountTokenPurpose, number> = {
  activation: STAFF_INVITATION_DAYS * 24 * 60 * 60,
  reset: 60 * 60,
};

/** 32 random bytes: unguessable, and long enough that hashing without a salt is sound. */
const TOKEN_BYTES = 32;

/** A transaction or the database itself. */
type Executor = Pick<Database, "select" | "update" | "insert">;

export function hashAccountToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Makes a new link token for the user; earlier unused ones of the same purpose stop working. */
export async function issueAccountToken(
  db: Database | Transaction,
  userId: number,
  purpose: AccountTokenPurpose,
) {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const expiresAt = new Date(Date.now() + ACCOUNT_TOKEN_TTL_S[purpose] * 1000);
  await db.transaction(async (tx) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(accountTokens.userId, userId),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
        ),
      );
    await tx.insert(accountTokens).values({ userId, purpose, tokenHash: hashAccountToken(token), expiresAt });
  });
  return { token, expiresAt };
}

/** The usable token and its user, or undefined for a token unknown, expired or used. */
export async function findUsableAccountToken(db: Executor, token: string) {
  const [row] = await db
    .select({
      userId: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      purpose: accountTokens.purpose,
      expiresAt: accountTokens.expiresAt,
    })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(
      and(
        eq(accountTokens.tokenHash, hashAccountToken(token)),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
        // A deactivated account's links do nothing (deactivation also retires them).
        isNull(users.deactivatedAt),
      ),
    );
  return row;
}

/**
 * Marks a usable token used and answers its user id; undefined when it was not usable. One
 * UPDATE with the usability test in its WHERE: of two concurrent uses, only one gets a row.
 */
export async function consumeAccountToken(db: Executor, token: string) {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(accountTokens.tokenHash, hashAccountToken(token)),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return row?.userId;
}

/** Every open link of the user stops working: after a password has been set through one. */
export async function retireAccountTokens(db: Executor, userId: number) {
  await db
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.userId, userId), isNull(accountTokens.usedAt)));
}

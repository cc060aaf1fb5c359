/**
 * Mails about an account: the activation link of a new user, the reset link of forgot_password,
 * and the username reminder of forgot_username. Each kind is limited per user and hour, so the
 * calls without a session cannot be used to flood someone's inbox.
 */
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { accountMails, users } from "../db/schema.ts";
import {
  activationMessage,
  passwordResetMessage,
  usernameReminderMessage,
} from "../mail/account-messages.ts";
import type { Mailer } from "../mail/mailer.ts";
import { ACCOUNT_TOKEN_TTL_S, issueAccountToken } from "./account-tokens.ts";

export type AccountMailKind = "activation" | "reset" | "username_reminder";

/** Per user and kind, in any hour; requests beyond it are answered alike but send nothing. */
export const ACCOUNT_MAILS_PER_HOUR = 5;

export type AccountMailDeps = {
  db: Database;
  mailer: Mailer;
  /** The portal's address as users reach it, without a trailing slash. */
  publicUrl: string;
};

function portalLink(publicUrl: string, route: string, token?: string) {
  const url = new URL(route, `${publicUrl}/`);
  if (token !== undefined) url.searchParams.set("token", token);
  return url.toString();
}

async function findUser(db: Database, username: string) {
  const [user] = await db
    .select({ id: users.id, username: users.username, name: users.name })
    .from(users)
    // A deactivated account gets no reset link nor reminder: it cannot sign in.
    .where(and(eq(users.username, username.trim().toLowerCase()), isNull(users.deactivatedAt)));
  return user;
}

/**
 * Records the mail unless the user already had ACCOUNT_MAILS_PER_HOUR of this kind this hour.
 * The user's row is locked for the count and the insert, so simultaneous requests cannot all
 * slip under the limit.
 */
async function takeMailAllowance(db: Database, userId: number, kind: AccountMailKind) {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [sent] = await tx
      .select({ total: count() })
      .from(accountMails)
      .where(
        and(
          eq(accountMails.userId, userId),
          eq(accountMails.kind, kind),
          gt(accountMails.sentAt, sql`now() - interval '1 hour'`),
        ),
      );
    if ((sent?.total ?? 0) >= ACCOUNT_MAILS_PER_HOUR) return false;
    await tx.insert(accountMails).values({ userId, kind });
    return true;
  });
}

/** Mails a new user the link that sets their first password (/users/activate?token=...). */
export async function sendActivationMail(
  deps: AccountMailDeps,
  user: { id: number; username: string; name: string },
) {
  const { token } = await issueActivation(deps.db, user.id);
  await mailActivationLink(deps, user, token);
}

/**
 * Issues a new activation link (the earlier one stops working) and records its mail, in the
 * caller's transaction when given one: an invitation's token is written with its user.
 */
export async function issueActivation(db: Database | Transaction, userId: number) {
  const issued = await issueAccountToken(db, userId, "activation");
  await db.insert(accountMails).values({ userId, kind: "activation" });
  return issued;
}

/** Mails the activation link of a token issued by issueActivation. */
export async function mailActivationLink(
  deps: Pick<AccountMailDeps, "mailer" | "publicUrl">,
  user: { username: string; name: string },
  token: string,
) {
  const link = portalLink(deps.publicUrl, "/users/activate", token);
  const days = ACCOUNT_TOKEN_TTL_S.activation / (24 * 60 * 60);
  await deps.mailer.send(activationMessage(user.username, user.name, link, days));
}

/** forgot_password: mails a reset link (/users/reset?token=...) if the username has an account. */
export async function sendPasswordResetMail(deps: AccountMailDeps, username: string) {
  const user = await findUser(deps.db, username);
  if (!user || !(await takeMailAllowance(deps.db, user.id, "reset"))) return;
  const { token } = await issueAccountToken(deps.db, user.id, "reset");
  const link = portalLink(deps.publicUrl, "/users/reset", token);
  await deps.mailer.send(passwordResetMessage(user.username, link, ACCOUNT_TOKEN_TTL_S.reset / 60));
}

/**
 * forgot_username: the username is the login email, so the reminder goes to the address given,
 * and only when an account has it: it tells the mailbox's owner that this address is the
 * username, and tells the caller nothing.
 */
export async function sendUsernameReminder(deps: AccountMailDeps, email: string) {
  const user = await findUser(deps.db, email);
  if (!user || !(await takeMailAllowance(deps.db, user.id, "username_reminder"))) return;
  await deps.mailer.send(usernameReminderMessage(user.username, portalLink(deps.publicUrl, "/login")));
}

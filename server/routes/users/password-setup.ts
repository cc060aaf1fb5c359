/**
 * The calls without a session that get a user (back) to a password:
 * - POST /control/users/forgot_password and POST /control/participants/me/forgot_username answer
 *   at once and alike for every input; the lookup and the mail happen afterwards, so neither
 *   the answer nor its timing tells whether an account exists;
 * - POST /control/users/verify_token reads an emailed link's token;
 * - POST /control/users/setup_password uses it, once, to set the password.
 */
import {
  forgotPasswordCall,
  forgotUsernameCall,
  setupPasswordCall,
  verifyTokenCall,
} from "../../../core/contracts/calls/account-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  TOKEN_REJECTED_MESSAGE,
  type AccountMailAccepted,
  type SetupPasswordResponse,
  type VerifyTokenResponse,
} from "../../../core/contracts/password-setup.ts";
import { refuseCommonPassword } from "../../auth/common-passwords.ts";
import { hashPassword, hasUsablePassword, verifyPassword } from "../../auth/passwords.ts";
import type { AppContext } from "../../context.ts";
import { setAuditActor } from "../../audit/audit-trail.ts";
import { users } from "../../db/schema.ts";
import type { BackgroundTasks } from "../../http/background-tasks.ts";
import { HttpError } from "../../http/errors.ts";
import {
  sendPasswordResetMail,
  sendUsernameReminder,
  type AccountMailDeps,
} from "../../users/account-mail.ts";
import {
  consumeAccountToken,
  findUsableAccountToken,
  retireAccountTokens,
} from "../../users/account-tokens.ts";

export type PasswordSetupServices = { accountMail: AccountMailDeps; background: BackgroundTasks };

const FORGOT_PASSWORD_ACCEPTED: AccountMailAccepted = {
  message: "If an account has this username, we have sent it an email with a link to choose a new password.",
};
const FORGOT_USERNAME_ACCEPTED: AccountMailAccepted = {
  message: "If an account has this email address, we have sent it an email with its username.",
};

function tokenRejected() {
  return new HttpError(400, TOKEN_REJECTED_MESSAGE, "invalid_token");
}

export function passwordSetupRoutes(app: FastifyInstance, ctx: AppContext, services: PasswordSetupServices) {
  const { accountMail, background } = services;

  registerCall(app, forgotPasswordCall, async (request): Promise<AccountMailAccepted> => {
    const { username } = request.body;
    background.run("forgot_password", () => sendPasswordResetMail(accountMail, username));
    return FORGOT_PASSWORD_ACCEPTED;
  });

  registerCall(app, forgotUsernameCall, async (request): Promise<AccountMailAccepted> => {
    const { email } = request.body;
    background.run("forgot_username", () => sendUsernameReminder(accountMail, email));
    return FORGOT_USERNAME_ACCEPTED;
  });

  registerCall(app, verifyTokenCall, async (request): Promise<VerifyTokenResponse> => {
    const { token } = request.body;
    const found = await findUsableAccountToken(ctx.db, token);
    if (!found) throw tokenRejected();
    return {
      token: await ctx.tokens.signPasswordSetup(
        { id: found.userId, username: found.username },
        found.expiresAt,
      ),
      hasPassword: hasUsablePassword(found.passwordHash),
    };
  });

  registerCall(app, setupPasswordCall, async (request): Promise<SetupPasswordResponse> => {
    const body = request.body;
    const found = await findUsableAccountToken(ctx.db, body.token);
    if (!found) throw tokenRejected();
    if (body.old_password && !(await verifyPassword(found.passwordHash, body.old_password))) {
      throw new HttpError(400, "The current password is incorrect.", "wrong_old_password");
    }
    refuseCommonPassword(body.password, "password");
    // Hashing is slow: done before the transaction, which then only writes.
    const passwordHash = await hashPassword(body.password);
    const username = await ctx.db.transaction(async (tx) => {
      const userId = await consumeAccountToken(tx, body.token);
      if (userId === undefined) return undefined;
      // The link's owner is the one who acts here (no session: the link is the credential).
      await setAuditActor(tx, userId);
      await retireAccountTokens(tx, userId);
      const [updated] = await tx
        .update(users)
        .set({
          passwordHash,
          isTemporaryPassword: false,
          // Sessions signed before this change stop working.
          tokenVersion: sql`${users.tokenVersion} + 1`,
        })
        .where(eq(users.id, userId))
        .returning({ username: users.username });
      return updated?.username;
    });
    // Used by a concurrent request between the check above and this transaction.
    if (username === undefined) throw tokenRejected();
    return { message: "Your password has been set. Please sign in.", username };
  });
}

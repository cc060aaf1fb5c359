/**
 * POST /control/change_password: needs the current password; revokes every earlier token of the
 * user and answers with a fresh one for this session.
 */
import { changePasswordCall } from "../../../core/contracts/calls/account-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { requireSession } from "../../auth/authenticate.ts";
import { refuseCommonPassword } from "../../auth/common-passwords.ts";
import { hashPassword, verifyPassword } from "../../auth/passwords.ts";
import type { AppContext } from "../../context.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";

export function changePasswordRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, changePasswordCall, async (request) => {
    const { user } = requireSession(request);
    const body = request.body;
    if (!(await verifyPassword(user.passwordHash, body.old_password))) {
      throw new HttpError(400, "The current password is incorrect.", "wrong_old_password");
    }
    refuseCommonPassword(body.new_password, "new_password");
    const passwordHash = await hashPassword(body.new_password);
    const [updated] = await withAuditActor(ctx.db, user.id, (tx) =>
      tx
        .update(users)
        .set({ passwordHash, isTemporaryPassword: false, tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id))
        .returning(),
    );
    if (!updated) throw new HttpError(401, "Authorization required", "token_invalid");
    return { token: await ctx.tokens.sign(updated) };
  });
}

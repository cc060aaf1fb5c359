/**
 * POST /control/change_password: needs the current password; revokes every earlier token of the
 * user and answers with a fresh one for this session.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { changePasswordRequest } from "../../../src/contracts/auth.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { hashPassword, verifyPassword } from "../../auth/passwords.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import { HttpError, parseInput } from "../../http/errors.ts";

export function changePasswordRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post("/control/change_password", async (request) => {
    const { user } = requireSession(request);
    const body = parseInput(changePasswordRequest, request.body);
    if (!(await verifyPassword(user.passwordHash, body.old_password))) {
      throw new HttpError(400, "The current password is incorrect.", "wrong_old_password");
    }
    const [updated] = await ctx.db
      .update(users)
      .set({
        passwordHash: await hashPassword(body.new_password),
        isTemporaryPassword: false,
        tokenVersion: sql`${users.tokenVersion} + 1`,
      })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw new HttpError(401, "Authorization required", "token_invalid");
    return { token: await ctx.tokens.sign(updated) };
  });
}

/**
 * GET and PATCH /control/clinro/users/me: the signed-in user, and their own profile edits.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { patchMeRequest } from "../../../src/contracts/user.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import { parseInput } from "../../http/errors.ts";
import { loadMe } from "../../users/load-me.ts";

export function meRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/control/clinro/users/me", async (request) => {
    const { user } = requireSession(request);
    return loadMe(ctx.db, user);
  });

  app.patch("/control/clinro/users/me", async (request) => {
    const { user } = requireSession(request);
    const changes = parseInput(patchMeRequest, request.body);
    const [updated] = await ctx.db
      .update(users)
      .set({
        name: changes.name,
        nickname: changes.nickname,
        isPhoneEnabled: changes.isPhoneEnabled,
        phone: changes.phone,
        countryDialCode: changes.countryDialCode,
      })
      .where(eq(users.id, user.id))
      .returning();
    return loadMe(ctx.db, updated ?? user);
  });
}

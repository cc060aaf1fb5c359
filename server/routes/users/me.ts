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
    const editable = Object.fromEntries(
      Object.entries({
        name: changes.name,
        nickname: changes.nickname,
        isPhoneEnabled: changes.isPhoneEnabled,
        phone: changes.phone,
        countryDialCode: changes.countryDialCode,
      }).filter(([, value]) => value !== undefined),
    );
    // The client sends the whole user; with nothing editable in it there is nothing to write.
    if (Object.keys(editable).length === 0) return loadMe(ctx.db, user);
    const [updated] = await ctx.db.update(users).set(editable).where(eq(users.id, user.id)).returning();
    return loadMe(ctx.db, updated ?? user);
  });
}

/**
 * GET and PATCH /control/clinro/users/me: the signed-in user, and their own profile edits.
 */
import { getMeCall, patchMeCall } from "../../../core/contracts/calls/user-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { users } from "../../db/schema.ts";
import { loadMe } from "../../users/load-me.ts";

export function meRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, getMeCall, async (request) => {
    const { user } = requireSession(request);
    return loadMe(ctx.db, user);
  });

  registerCall(app, patchMeCall, async (request) => {
    const { user } = requireSession(request);
    const changes = request.body;
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
    const [updated] = await withAuditActor(ctx.db, user.id, (tx) =>
      tx.update(users).set(editable).where(eq(users.id, user.id)).returning(),
    );
    return loadMe(ctx.db, updated ?? user);
  });
}

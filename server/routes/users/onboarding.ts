/**
 * PUT /control/clinro/users/me/onboarding/{kind}: the user dismisses an onboarding card
 * (activities or announcements) for good. Kept with the user (users.onboarding_dismissed), so the
 * me call's `onboarding` says so on every device. Dismissing one already dismissed changes
 * nothing and answers the same.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { dismissOnboardingCall } from "../../../core/contracts/calls/announcement-calls.ts";
import { withAuditActor } from "../../audit/audit-trail.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema.ts";
import { registerCall } from "../../http/register-call.ts";
import { onboardingOf } from "../../users/load-me.ts";

export function onboardingRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, dismissOnboardingCall, async (request) => {
    const { user } = requireSession(request);
    const { kind } = request.params;
    if (user.onboardingDismissed.includes(kind)) return { onboarding: onboardingOf(user) };
    const [updated] = await withAuditActor(ctx.db, user.id, (tx) =>
      tx
        .update(users)
        .set({
          onboardingDismissed: sql`(select array_agg(distinct kind order by kind) from unnest(array_append(${users.onboardingDismissed}, ${kind}::text)) as kind)`,
        })
        .where(eq(users.id, user.id))
        .returning({ onboardingDismissed: users.onboardingDismissed }),
    );
    return { onboarding: onboardingOf(updated ?? user) };
  });
}

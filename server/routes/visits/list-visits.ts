/**
 * GET /control/studies/{studyId}/sites/{siteId}/clinro_visits: the visits page's list (field
 * visits): the visits of that study and site that have not ended, ad hoc ones always, soonest
 * first. 403 outside the user's permissions and for a witness.
 */
import type { FastifyInstance } from "fastify";
import { listVisitsCall } from "../../../core/contracts/calls/visit-calls.ts";
import type { VisitsResponse } from "../../../core/contracts/visits.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { registerCall } from "../../http/register-call.ts";
import { listOpenVisits, requireVisitsAccess } from "../../visits/visit-records.ts";

export function listVisitsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, listVisitsCall, async (request): Promise<VisitsResponse> => {
    const { user } = requireSession(request);
    const { studyId, siteId } = request.params;
    await requireVisitsAccess(ctx.db, user.id, studyId, siteId);
    return { visits: await listOpenVisits(ctx.db, studyId, siteId, new Date()) };
  });
}

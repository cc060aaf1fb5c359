/**
 * GET /control/studies/{studyId}: the study with its config, for users with a permission in it.
 */
import { getStudyCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type StudyResponse } from "../../../core/contracts/study.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { sitePermissions, sites, studies } from "../../db/schema.ts";
import { HttpError } from "../../http/errors.ts";
import { hasStudyPermission } from "../../users/load-me.ts";

export function studyRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, getStudyCall, async (request): Promise<StudyResponse> => {
    const { user } = requireSession(request);
    const { studyId } = request.params;
    // The same 403 whether the study exists or not: no permission reveals nothing.
    if (!(await hasStudyPermission(ctx.db, user.id, studyId))) {
      throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
    }
    const [study] = await ctx.db.select().from(studies).where(eq(studies.id, studyId));
    if (!study) throw new HttpError(403, "You do not have access to this study.", "study_forbidden");
    const siteRows = await ctx.db
      .select({ id: sites.id, label: sites.label, treeLevel: sites.treeLevel, isVirtual: sites.isVirtual })
      .from(sites)
      .innerJoin(
        sitePermissions,
        and(eq(sitePermissions.siteId, sites.id), eq(sitePermissions.userId, user.id)),
      )
      // A retired site (removed from the study file) is offered for no new work.
      .where(and(eq(sites.studyId, studyId), isNull(sites.retiredAt)))
      .orderBy(sites.id);
    return {
      id: study.id,
      name: study.name,
      smsEnabled: study.smsEnabled,
      newConsentEnabled: study.newConsentEnabled,
      config: study.config,
      sites: siteRows.map((site) => ({
        site_id: site.id,
        site_label: site.label,
        tree_level: site.treeLevel,
        is_virtual: site.isVirtual,
      })),
    };
  });
}

/**
 * GET /control/v2/clinro/me/consents, optional ?study_id and ?site_id: the consents of the
 * studies the user has permission in, grouped by study (spec 02 sections 3 and 7).
 *
 * missing_consents of a consent: the participants of the user's permitted sites of that study
 * (only site_id's when given) whose status for the consent is neither complete nor declined.
 * Participants with no status row for a consent (not offered it yet) are not counted.
 *
 * A study_id or site_id outside the user's permissions (or a site_id not of the given study) is
 * one and the same 403, whether the study or site exists or not.
 */
import { listMyConsentsCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, eq, isNull, notInArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  FINISHED_CONSENT_STATUSES,
  type MyConsentsResponse,
  type StudyConsents,
} from "../../../core/contracts/consents.ts";
import { alongsideSessionCheck, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import {
  consentParticipants,
  consents,
  participants,
  sitePermissions,
  sites,
  studies,
  studyPermissions,
} from "../../db/schema.ts";
import { readableSites, siteForbidden } from "../../participants/site-access.ts";

/** The user's studies. */
function loadPermittedStudies(db: Database, userId: number) {
  return db
    .select({ id: studies.id, name: studies.name })
    .from(studyPermissions)
    .innerJoin(studies, eq(studies.id, studyPermissions.studyId))
    .where(eq(studyPermissions.userId, userId))
    .orderBy(asc(studies.id));
}

/**
 * The consents of the user's studies (only study_id's, only site_id's study, when given), with
 * their missing consents counted over the user's sites of the study (only site_id when given):
 * the scope is in the statement, so that it runs beside the session check and the user's studies
 * and sites, which decide the refusals. One prepared statement for each of the four shapes of
 * the query (study_id and site_id given or not).
 *
 * A consent's missing consents: its unfinished participants of the counted sites, counted from
 * those sites' participants (each one's status found by the primary key), so that the count reads
 * the user's sites, not the whole study's statuses (issue 28: flat as a study grows). (The outer
 * consent's columns are written out: in a select list Drizzle names a column without its table,
 * which inside the subquery would be the subquery's own.)
 */
const preparedConsentLists = preparedPerDatabase((db, shape) => {
  const [byStudy, bySite] = [shape.includes("study"), shape.includes("site")];
  const userId = sql.placeholder("userId");
  const studyId = sql.placeholder("studyId");
  const siteId = sql.placeholder("siteId");
  const countedSites = sql`(select ${sitePermissions.siteId} from ${sitePermissions}
    where ${sitePermissions.userId} = ${userId}${bySite ? sql` and ${sitePermissions.siteId} = ${siteId}` : sql``})`;
  const missing = sql<number>`(
    select count(*)::int from ${participants}
    join ${consentParticipants} on ${consentParticipants.participantId} = ${participants.id}
      and ${consentParticipants.consentId} = "consents"."id"
    where ${participants.studyId} = "consents"."study_id"
      and ${participants.siteId} in ${countedSites}
      and ${notInArray(consentParticipants.status, [...FINISHED_CONSENT_STATUSES])})`;
  return db
    .select({
      id: consents.id,
      studyId: consents.studyId,
      title: consents.title,
      type: consents.type,
      version: consents.version,
      dateDeployed: consents.dateDeployed,
      missing,
    })
    .from(consents)
    .where(
      and(
        sql`${consents.studyId} in (select ${studyPermissions.studyId} from ${studyPermissions} where ${studyPermissions.userId} = ${userId})`,
        byStudy ? eq(consents.studyId, studyId) : undefined,
        bySite
          ? sql`${consents.studyId} = (select ${sites.studyId} from ${sites} where ${sites.id} = ${siteId})`
          : undefined,
        // A retired consent (removed from the study file) is not listed for signing.
        isNull(consents.retiredAt),
      ),
    )
    .orderBy(asc(consents.studyId), asc(consents.title), asc(consents.id))
    .prepare(`my_consents_${shape}`);
});

export function myConsentsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    listMyConsentsCall,
    async (request): Promise<MyConsentsResponse> => {
      const claims = unconfirmedClaims(request);
      const query = request.query;
      const shape = `${query.study_id === undefined ? "" : "study"}_${query.site_id === undefined ? "" : "site"}`;
      // The user's studies and sites, and the consents, beside the session check: one round trip.
      const [permittedStudies, permittedSites, rows] = await alongsideSessionCheck(request, [
        loadPermittedStudies(ctx.db, claims.id),
        readableSites(ctx.db, claims.id),
        preparedConsentLists(ctx.db, shape).execute({
          userId: claims.id,
          studyId: query.study_id,
          siteId: query.site_id,
        }),
      ]);

      // The refusals, from the user's studies and sites: the consents read above are dropped.
      let listed = permittedStudies;
      if (query.study_id !== undefined) {
        listed = listed.filter((study) => study.id === query.study_id);
        if (listed.length === 0) throw siteForbidden();
      }
      if (query.site_id !== undefined) {
        const site = permittedSites.find(
          (candidate) =>
            candidate.siteId === query.site_id &&
            (query.study_id === undefined || candidate.studyId === query.study_id),
        );
        if (!site) throw siteForbidden();
        listed = listed.filter((study) => study.id === site.studyId);
      }

      const byStudy = new Map<number, StudyConsents>(
        listed.map((study) => [study.id, { study_id: study.id, study_name: study.name, consents: [] }]),
      );
      for (const row of rows) {
        byStudy.get(row.studyId)?.consents.push({
          consent_id: row.id,
          title: row.title,
          type: row.type,
          version: row.version,
          date_deployed: row.dateDeployed.toISOString(),
          missing_consents: row.missing,
        });
      }
      return { consents: [...byStudy.values()] };
    },
    { sessionCheckedByRead: true },
  );
}

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
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  FINISHED_CONSENT_STATUSES,
  type MyConsentsResponse,
  type StudyConsents,
} from "../../../core/contracts/consents.ts";
import { confirmedSession, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { SessionClaims } from "../../auth/tokens.ts";
import type { AppContext } from "../../context.ts";
import { preparedRows, type Database } from "../../db/client.ts";
import { isoTime } from "../../db/iso-time.ts";
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

/** What the consents list reads: the user's studies and sites, which decide the refusals, and the consents. */
type ConsentListRead = {
  studies: { id: number; name: string }[];
  sites: { id: number; study_id: number }[];
  consents: {
    id: number;
    study_id: number;
    title: string;
    type: string;
    version: number;
    date_deployed: string;
    missing: number;
  }[];
};

/** The values of the consents list's statement; study_id and site_id only when asked. */
type ConsentListValues = {
  userId: number;
  tokenVersion: number;
  jti: string;
  studyId?: number;
  siteId?: number;
};

/** Which of the optional filters the statement holds: its text differs with them. */
type ConsentListShape = `${"all" | "study"} ${"all" | "site"}`;

/**
 * The whole list in one statement, which holds the session check (sessionHolds): the user's
 * studies, the sites they may read (site-access's rule) and the consents of those studies (only
 * study_id's, only site_id's study, when given), each as a JSON array. No row: the session does
 * not hold. One statement instead of four at once: each statement sent wakes a database process,
 * and on a small server those wake-ups cost more than these statements.
 *
 * A consent's missing consents: its unfinished participants of the counted sites (the user's, only
 * site_id when given), counted from those sites' participants (each one's status found by the
 * unfinished-status index), so that the count reads the user's sites, not the whole study's
 * statuses (flat as a study grows).
 */
export const consentListStatements = preparedPerDatabase((db: Database, shape: string) => {
  const [studyFilter, siteFilter] = shape.split(" ");
  const userId = sql.placeholder("userId");
  const studyId = sql.placeholder("studyId");
  const siteId = sql.placeholder("siteId");
  const countedSites = sql`select ${sitePermissions.siteId} from ${sitePermissions}
    where ${sitePermissions.userId} = ${userId}${siteFilter === "site" ? sql` and ${sitePermissions.siteId} = ${siteId}` : sql``}`;
  // The finished statuses as literals, not parameters: PostgreSQL proves the unfinished-status
  // partial index usable only from constants in the statement's text. With parameters, the plan it
  // keeps for the prepared statement could not use that index, so it planned the statement anew
  // at every call (0.55 ms, twice what the statement then ran).
  const finished = sql.raw(FINISHED_CONSENT_STATUSES.map((status) => `'${status}'`).join(", "));
  return preparedRows<ConsentListRead, ConsentListValues>(
    db,
    `consent_list_${shape.replace(" ", "_")}`,
    sql`select
      (select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name) order by s.id), '[]')
        from ${studyPermissions} sp join ${studies} s on s.id = sp.study_id
        where sp.user_id = ${userId}) as studies,
      (select coalesce(json_agg(json_build_object('id', readable.id, 'study_id', readable.study_id)), '[]')
        from (${readableSites(db, userId)}) readable) as sites,
      (select coalesce(json_agg(listed order by listed.study_id, listed.title, listed.id), '[]') from (
        select c.id, c.study_id, c.title, c.type, c.version, c.date_deployed,
          (select count(*)::int from ${participants} p
            join ${consentParticipants} cp on cp.participant_id = p.id and cp.consent_id = c.id
            where p.study_id = c.study_id and p.site_id in (${countedSites})
              and cp.status not in (${finished})) as missing
        from ${consents} c
        where c.study_id in (select ${studyPermissions.studyId} from ${studyPermissions}
            where ${studyPermissions.userId} = ${userId})
          ${studyFilter === "study" ? sql`and c.study_id = ${studyId}` : sql``}
          ${siteFilter === "site" ? sql`and c.study_id = (select ${sites.studyId} from ${sites} where ${sites.id} = ${siteId})` : sql``}
          -- A retired consent (removed from the study file) is not listed for signing.
          and c.retired_at is null) listed) as consents
    where ${sessionHolds(db, userId, sql.placeholder("tokenVersion"), sql.placeholder("jti"))}`,
  );
});

async function readConsentList(
  db: Database,
  claims: SessionClaims,
  studyId: number | undefined,
  siteId: number | undefined,
): Promise<ConsentListRead | undefined> {
  const shape: ConsentListShape = `${studyId === undefined ? "all" : "study"} ${siteId === undefined ? "all" : "site"}`;
  const [row] = await consentListStatements(db, shape).all({
    userId: claims.id,
    tokenVersion: claims.ver,
    jti: claims.jti,
    studyId,
    siteId,
  });
  return row;
}

export function myConsentsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    listMyConsentsCall,
    async (request): Promise<MyConsentsResponse> => {
      const claims = unconfirmedClaims(request);
      const query = request.query;
      const read = await readConsentList(ctx.db, claims, query.study_id, query.site_id);
      // No row: the session does not hold (confirmedSession answers its 401).
      if (!read) {
        await confirmedSession(request);
        throw new Error("The consents list read nothing while the session holds");
      }
      const { studies: permittedStudies, sites: permittedSites, consents: rows } = read;

      // The refusals, from the user's studies and sites: the consents read above are dropped.
      let listed = permittedStudies;
      if (query.study_id !== undefined) {
        listed = listed.filter((study) => study.id === query.study_id);
        if (listed.length === 0) throw siteForbidden();
      }
      if (query.site_id !== undefined) {
        const site = permittedSites.find(
          (candidate) =>
            candidate.id === query.site_id &&
            (query.study_id === undefined || candidate.study_id === query.study_id),
        );
        if (!site) throw siteForbidden();
        listed = listed.filter((study) => study.id === site.study_id);
      }

      const byStudy = new Map<number, StudyConsents>(
        listed.map((study) => [study.id, { study_id: study.id, study_name: study.name, consents: [] }]),
      );
      for (const row of rows) {
        byStudy.get(row.study_id)?.consents.push({
          consent_id: row.id,
          title: row.title,
          type: row.type,
          version: row.version,
          date_deployed: isoTime(row.date_deployed),
          missing_consents: row.missing,
        });
      }
      return { consents: [...byStudy.values()] };
    },
    { sessionCheckedByRead: true },
  );
}

/**
 * GET /control/v2/clinro/me/consents/{consentId}, optional ?site_id: the participants offered the
 * consent, with their status and the version they are on, grouped by status and sorted by last
 * name, first name in each group (the client regroups them by who must act, spec 02 section 4).
 * Without site_id (as the spec's call table writes the call) they are the participants of every
 * site of the consent's study the user may work in; site_id narrows them to that site, which
 * must be a permitted site of the consent's study (403 otherwise, whether it exists or not). A
 * user with no permitted site in the study is refused the same way. An unknown consent is a 404.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { consentParticipantsCall } from "../../../core/contracts/calls/consent-calls.ts";
import {
  compareParticipantNames,
  type ConsentParticipant,
  type ConsentParticipantsResponse,
} from "../../../core/contracts/consent-schemas.ts";
import { CONSENT_PARTICIPANT_STATUSES } from "../../../core/contracts/consents.ts";
import { alongsideSessionCheck, unconfirmedClaims } from "../../auth/authenticate.ts";
import { requireConsent } from "../../consents/consent-access.ts";
import type { AppContext } from "../../context.ts";
import { preparedRows, type Database } from "../../db/client.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import { sites } from "../../db/schema.ts";
import { registerCall } from "../../http/register-call.ts";
import { readableSites, readableSiteStudy, siteForbidden } from "../../participants/site-access.ts";

/**
 * The participants offered a consent at the given sites, read as the answer's own rows, without
 * Drizzle's mapping of each cell into its column's type (2 ms of CPU for 2,000 participants, more
 * than the statement itself; issue 28). In name order already, so that the route's sort (a merge
 * sort that finds the runs in its input) makes one pass over them instead of n log n collator
 * comparisons. The sites are one array value, so that the statement's text is one whatever their
 * number.
 *
 * Each participant of the sites finds their status by the primary key (the lateral's `offset 0`
 * keeps PostgreSQL from turning it into a join): the planner otherwise hashed the consent's
 * statuses of the whole study (26,000 on the scale database, 8 to 12 ms) to keep the site's
 * 2,000 (2,000 index probes: 3 ms), and the read grew with the study (issue 28).
 */
const consentParticipantRows = preparedPerDatabase((db: Database) =>
  preparedRows<ConsentParticipant, { consentId: number; studyId: number; siteIds: number[] }>(
    db,
    "consent_participants",
    sql`select cp.consent_id, cp.status as consent_participant_status,
          cp.version as consent_version, p.email, p.id, p.fname as firstname,
          p.lname as lastname, p.subject_id
        from participants p
          cross join lateral (select cp.consent_id, cp.status, cp.version from consent_participants cp
            where cp.consent_id = ${sql.placeholder("consentId")} and cp.participant_id = p.id
            offset 0) cp
        where p.study_id = ${sql.placeholder("studyId")}
          and p.site_id = any(${sql.placeholder("siteIds")}::integer[])
        order by lower(p.lname), lower(p.fname), p.id`,
  ),
);

export function consentParticipantsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    consentParticipantsCall,
    async (request): Promise<ConsentParticipantsResponse> => {
      const claims = unconfirmedClaims(request);
      const { consentId } = request.params;
      const { site_id: siteId } = request.query;
      // The session, the consent and the named site at once (refused in that order): the site's
      // study is read with it and must be the consent's.
      const [{ consent }, siteStudyId] = await alongsideSessionCheck(request, [
        requireConsent(ctx.db, claims.id, consentId),
        siteId === undefined ? undefined : readableSiteStudy(ctx.db, claims.id, siteId),
      ]);
      let siteIds: number[];
      if (siteId !== undefined) {
        if (siteStudyId !== consent.studyId) throw siteForbidden();
        siteIds = [siteId];
      } else {
        const readable = await readableSites(ctx.db, claims.id).where(eq(sites.studyId, consent.studyId));
        siteIds = readable.map((site) => site.siteId);
        if (siteIds.length === 0) throw siteForbidden();
      }
      const rows = await consentParticipantRows(ctx.db).all({
        consentId: consent.id,
        studyId: consent.studyId,
        siteIds,
      });
      // Sorted here too, by the name order of every list: the databases' collations differ
      // (PGlite's and PostgreSQL's order accents differently; a C locale lower-cases ASCII only).
      const sorted = rows.sort(compareParticipantNames);
      // Grouped in one pass, each group in the sorted order, the groups in the statuses' order.
      const byStatus = new Map<string, ConsentParticipant[]>(
        CONSENT_PARTICIPANT_STATUSES.map((status) => [status, []]),
      );
      for (const participant of sorted)
        byStatus.get(participant.consent_participant_status)?.push(participant);
      const groups = CONSENT_PARTICIPANT_STATUSES.map((status) => ({
        status,
        participants: byStatus.get(status) ?? [],
      })).filter((group) => group.participants.length > 0);
      return {
        consent_id: consent.id,
        title: consent.title,
        version: consent.version,
        date_deployed: consent.dateDeployed.toISOString(),
        groups,
      };
    },
    { sessionCheckedByRead: true },
  );
}

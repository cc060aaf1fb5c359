/**
 * GET /control/v2/clinro/me/consents/{consentId}, optional ?site_id: the participants offered the
 * consent, with their status and the version they are on, grouped by status and sorted by last
 * name, first name in each group (the client regroups them by who must act, spec 02 section 4).
 * Without site_id (as the spec's call table writes the call) they are the participants of every
 * site of the consent's study the user may work in; site_id narrows them to that site, which
 * must be a permitted site of the consent's study (403 otherwise, whether it exists or not). A
 * user with no permitted site in the study is refused the same way. An unknown consent is a 404.
 */
import { eq, exists, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { consentParticipantsCall } from "../../../core/contracts/calls/consent-calls.ts";
import {
  compareParticipantNames,
  type ConsentParticipant,
  type ConsentParticipantsResponse,
} from "../../../core/contracts/consent-schemas.ts";
import { CONSENT_PARTICIPANT_STATUSES } from "../../../core/contracts/consents.ts";
import { alongsideSessionCheck, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import { requireConsent } from "../../consents/consent-access.ts";
import type { AppContext } from "../../context.ts";
import { preparedRows, type Database } from "../../db/client.ts";
import { preparedPerDatabase } from "../../db/prepared-per-database.ts";
import { consents, sites } from "../../db/schema.ts";
import { registerCall } from "../../http/register-call.ts";
import {
  readableSites,
  readableSiteStudy,
  siteAccess,
  siteForbidden,
} from "../../participants/site-access.ts";

/**
 * The participants offered a consent at the given sites, read as the answer's own rows, without
 * Drizzle's mapping of each cell into its column's type (2 ms of CPU for 2,000 participants, more
 * than the statement itself). In name order already, so that the route's sort (a merge
 * sort that finds the runs in its input) makes one pass over them instead of n log n collator
 * comparisons. The sites are one array value, so that the statement's text is one whatever their
 * number.
 *
 * Each participant of the sites finds their status by the primary key (the lateral's `offset 0`
 * keeps PostgreSQL from turning it into a join): the planner otherwise hashed the consent's
 * statuses of the whole study (26,000 on the scale database, 8 to 12 ms) to keep the site's
 * 2,000 (2,000 index probes: 3 ms), and the read grew with the study.
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

/**
 * The participants of one named site, read under the whole check in the same statement: the
 * session holds (sessionHolds), and the site is one the user may read in the consent's study
 * (siteAccess, which holds the user's permission in that study too). Sent beside the consent's
 * own read instead of after it, so the call takes one round trip where it took two;
 * a read that finds nothing asks the checks one by one for the refusal it owes. The same plan
 * as consentParticipantRows: the consent's study is a constant once its row is found.
 */
const consentParticipantsAtSite = preparedPerDatabase((db: Database) => {
  const userId = sql.placeholder("userId");
  const siteId = sql.placeholder("siteId");
  const siteReadable = exists(siteAccess(db, userId, consents.studyId, siteId));
  const session = sessionHolds(db, userId, sql.placeholder("tokenVersion"), sql.placeholder("jti"));
  return preparedRows<
    ConsentParticipant,
    { consentId: number; siteId: number; userId: number; tokenVersion: number; jti: string }
  >(
    db,
    "consent_participants_at_site",
    sql`select cp.consent_id, cp.status as consent_participant_status,
          cp.version as consent_version, p.email, p.id, p.fname as firstname,
          p.lname as lastname, p.subject_id
        from ${consents}
          join participants p on p.study_id = ${consents.studyId} and p.site_id = ${siteId}
          cross join lateral (select cp.consent_id, cp.status, cp.version from consent_participants cp
            where cp.consent_id = ${consents.id} and cp.participant_id = p.id
            offset 0) cp
        where ${consents.id} = ${sql.placeholder("consentId")} and ${siteReadable} and ${session}
        order by lower(p.lname), lower(p.fname), p.id`,
  );
});

type Claims = ReturnType<typeof unconfirmedClaims>;
type ConsentRow = Awaited<ReturnType<typeof requireConsent>>["consent"];

/**
 * One named site (the tablet's call): the consent and the site's participants read at once, the
 * participants only under the session and the user's permissions. When the consent's read is
 * refused or no participant is found, the checks run as on every other call, in their order (the
 * session's 401, the consent's 404 or 403, the site's 403), and a site with nobody offered the
 * consent answers no groups.
 */
async function participantsOfSite(
  db: Database,
  request: FastifyRequest,
  claims: Claims,
  consentId: number,
  siteId: number,
): Promise<{ consent: ConsentRow; rows: ConsentParticipant[] }> {
  const [consentRead, rowsRead] = await Promise.allSettled([
    requireConsent(db, claims.id, consentId),
    consentParticipantsAtSite(db).all({
      consentId,
      siteId,
      userId: claims.id,
      tokenVersion: claims.ver,
      jti: claims.jti,
    }),
  ]);
  if (rowsRead.status === "rejected") throw rowsRead.reason;
  if (consentRead.status === "fulfilled" && rowsRead.value.length > 0) {
    return { consent: consentRead.value.consent, rows: rowsRead.value };
  }
  const [{ consent }, siteStudyId] = await alongsideSessionCheck(request, [
    requireConsent(db, claims.id, consentId),
    readableSiteStudy(db, claims.id, siteId),
  ]);
  if (siteStudyId !== consent.studyId) throw siteForbidden();
  return { consent, rows: rowsRead.value };
}

/**
 * No site named: the participants of every site of the consent's study the user may read, once
 * the session and the consent are checked (the sites are known only then).
 */
async function participantsOfEverySite(
  db: Database,
  request: FastifyRequest,
  userId: number,
  consentId: number,
): Promise<{ consent: ConsentRow; rows: ConsentParticipant[] }> {
  const [{ consent }] = await alongsideSessionCheck(request, [requireConsent(db, userId, consentId)]);
  const readable = await readableSites(db, userId).where(eq(sites.studyId, consent.studyId));
  const siteIds = readable.map((site) => site.siteId);
  if (siteIds.length === 0) throw siteForbidden();
  const rows = await consentParticipantRows(db).all({
    consentId: consent.id,
    studyId: consent.studyId,
    siteIds,
  });
  return { consent, rows };
}

export function consentParticipantsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    consentParticipantsCall,
    async (request): Promise<ConsentParticipantsResponse> => {
      const claims = unconfirmedClaims(request);
      const { consentId } = request.params;
      const { site_id: siteId } = request.query;
      const { consent, rows } =
        siteId === undefined
          ? await participantsOfEverySite(ctx.db, request, claims.id, consentId)
          : await participantsOfSite(ctx.db, request, claims, consentId, siteId);
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

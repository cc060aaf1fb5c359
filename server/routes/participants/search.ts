/**
 * GET /control/studies/{studyId}/sites/{siteId}/clinro_search?search_value={text}: participant
 * search, a case-insensitive substring match over first name, last name and subject id within
 * one study and site. Each field has a trigram GIN index (migration 0003), which answers
 * ILIKE '%word%' for words of three characters or more without reading every participant.
 */
import { searchParticipantsCall } from "../../../core/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, eq, exists, ilike, or, sql, type Placeholder } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { SEARCH_RESULT_LIMIT, type ParticipantSearchResponse } from "../../../core/contracts/participant.ts";
import { confirmedSession, sessionHolds, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { SessionClaims } from "../../auth/tokens.ts";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { participants } from "../../db/schema.ts";
import { canReadSite, siteAccess, siteForbidden } from "../../participants/site-access.ts";

/** Words beyond this are ignored: more narrows nothing in practice and costs index scans. */
const MAX_SEARCH_WORDS = 5;

/** Each word as a LIKE pattern matching it anywhere, its own % _ and \ taken literally. */
export function searchPatterns(searchValue: string) {
  return searchValue
    .split(/\s+/)
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
}

/**
 * The search's query, apart from the route so that bench/search can run the very same SQL bare
 * (its `toSQL()`) beside the HTTP call. It holds the session check and the site access rule
 * itself: rows come back only while the token holds and the user may read the site, so a search
 * that finds something costs one query, session check included.
 */
export function participantSearchSelect(
  db: Database,
  session: {
    userId: number | Placeholder;
    tokenVersion: number | Placeholder;
    jti: string | Placeholder;
  },
  studyId: number | Placeholder,
  siteId: number | Placeholder,
  patterns: (string | Placeholder)[],
) {
  return db
    .select({
      id: participants.id,
      fname: participants.fname,
      lname: participants.lname,
      site_id: participants.siteId,
      study_id: participants.studyId,
      subject_id: participants.subjectId,
      date_of_birth: participants.dateOfBirth,
    })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, studyId),
        eq(participants.siteId, siteId),
        sessionHolds(db, session.userId, session.tokenVersion, session.jti),
        exists(siteAccess(db, session.userId, studyId, siteId)),
        ...patterns.map((pattern) =>
          or(
            ilike(participants.lname, pattern),
            ilike(participants.fname, pattern),
            ilike(participants.subjectId, pattern),
          ),
        ),
      ),
    )
    .orderBy(sql`lower(${participants.lname})`, sql`lower(${participants.fname})`, asc(participants.id))
    .limit(SEARCH_RESULT_LIMIT);
}

/**
 * One prepared query per number of words, per database: building the query costs about as much
 * CPU as running a selective search.
 */
const preparedSearches = new WeakMap<Database, Map<number, ReturnType<typeof prepareSearch>>>();

function prepareSearch(db: Database, wordCount: number) {
  const patterns = Array.from({ length: wordCount }, (_, index) => sql.placeholder(`pattern${index}`));
  const select = participantSearchSelect(
    db,
    {
      userId: sql.placeholder("userId"),
      tokenVersion: sql.placeholder("tokenVersion"),
      jti: sql.placeholder("jti"),
    },
    sql.placeholder("studyId"),
    sql.placeholder("siteId"),
    patterns,
  );
  return select.prepare(`participant_search_${wordCount}`);
}

function searchRows(
  db: Database,
  claims: SessionClaims,
  studyId: number,
  siteId: number,
  searchValue: string,
) {
  const patterns = searchPatterns(searchValue);
  let byWordCount = preparedSearches.get(db);
  if (!byWordCount) {
    byWordCount = new Map();
    preparedSearches.set(db, byWordCount);
  }
  let prepared = byWordCount.get(patterns.length);
  if (!prepared) {
    prepared = prepareSearch(db, patterns.length);
    byWordCount.set(patterns.length, prepared);
  }
  return prepared.execute({
    userId: claims.id,
    tokenVersion: claims.ver,
    jti: claims.jti,
    studyId,
    siteId,
    ...Object.fromEntries(patterns.map((pattern, index) => [`pattern${index}`, pattern])),
  });
}

export function participantSearchRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    searchParticipantsCall,
    async (request): Promise<ParticipantSearchResponse> => {
      const { studyId, siteId } = request.params;
      const { search_value } = request.query;
      // Asked at every letter typed: one query, which holds the session check and the site
      // access rule (participantSearchSelect). Rows prove both.
      const claims = unconfirmedClaims(request);
      const rows = await searchRows(ctx.db, claims, studyId, siteId, search_value);
      if (rows.length > 0) return { response: rows };
      // No rows: a session that no longer holds (its 401 comes first), a site that is not the
      // user's (403), or nothing matched.
      const [, mayRead] = await Promise.all([
        confirmedSession(request),
        canReadSite(ctx.db, claims.id, studyId, siteId),
      ]);
      if (!mayRead) throw siteForbidden();
      return { response: [] };
    },
    { sessionCheckedByRead: true },
  );
}

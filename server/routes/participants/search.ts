/**
 * GET /control/studies/{studyId}/sites/{siteId}/clinro_search?search_value={text}: participant
 * search, a case-insensitive substring match over first name, last name and subject id within
 * one study and site. Each field has a trigram GIN index (migration 0003), which answers
 * ILIKE '%word%' for words of three characters or more without reading every participant.
 */
import { searchParticipantsCall } from "../../../src/contracts/calls/study-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { and, asc, eq, exists, ilike, or, sql, type Placeholder } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { SEARCH_RESULT_LIMIT, type ParticipantSearchResponse } from "../../../src/contracts/participant.ts";
import { readAlongsideSessionCheck } from "../../auth/authenticate.ts";
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
 * (its `toSQL()`) beside the HTTP call. It holds the site access rule itself: rows come back
 * only when the user may read the site, and a search that finds something costs one round trip.
 */
export function participantSearchSelect(
  db: Database,
  userId: number | Placeholder,
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
        exists(siteAccess(db, userId, studyId, siteId)),
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
    sql.placeholder("userId"),
    sql.placeholder("studyId"),
    sql.placeholder("siteId"),
    patterns,
  );
  return select.prepare(`participant_search_${wordCount}`);
}

function searchRows(db: Database, userId: number, studyId: number, siteId: number, searchValue: string) {
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
    userId,
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
      // Asked at every letter typed: the search runs while the session is checked. Its SQL holds
      // the site access rule, and its rows are dropped if the session does not hold.
      const { session, result: rows } = await readAlongsideSessionCheck(request, (userId) =>
        searchRows(ctx.db, userId, studyId, siteId, search_value),
      );
      // No rows: nothing matched, or the site is not the user's; only the second is a 403.
      if (rows.length === 0 && !(await canReadSite(ctx.db, session.user.id, studyId, siteId))) {
        throw siteForbidden();
      }
      return { response: rows };
    },
    { readsAlongsideSessionCheck: true },
  );
}

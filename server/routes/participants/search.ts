/**
 * GET /control/studies/{studyId}/sites/{siteId}/clinro_search?search_value={text}: participant
 * search, a case-insensitive substring match over first name, last name and subject id within
 * one study and site. Each field has a trigram GIN index (migration 0003), which answers
 * ILIKE '%word%' for words of three characters or more without reading every participant.
 */
import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  SEARCH_RESULT_LIMIT,
  participantSearchQuery,
  siteParams,
  type ParticipantSearchResponse,
} from "../../../src/contracts/participant.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { participants } from "../../db/schema.ts";
import { parseInput } from "../../http/errors.ts";
import { canReadSite, siteForbidden } from "../../participants/site-access.ts";

/** Words beyond this are ignored: more narrows nothing in practice and costs index scans. */
const MAX_SEARCH_WORDS = 5;

/** The word as a LIKE pattern matching it anywhere, its own % _ and \ taken literally. */
function containsPattern(word: string) {
  return `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export function participantSearchRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    "/control/studies/:studyId/sites/:siteId/clinro_search",
    async (request): Promise<ParticipantSearchResponse> => {
      const { user } = requireSession(request);
      const { studyId, siteId } = parseInput(siteParams, request.params);
      const { search_value } = parseInput(participantSearchQuery, request.query);
      if (!(await canReadSite(ctx.db, user.id, studyId, siteId))) throw siteForbidden();

      const words = search_value.split(/\s+/).slice(0, MAX_SEARCH_WORDS);
      const rows = await ctx.db
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
            ...words.map((word) => {
              const pattern = containsPattern(word);
              return or(
                ilike(participants.lname, pattern),
                ilike(participants.fname, pattern),
                ilike(participants.subjectId, pattern),
              );
            }),
          ),
        )
        .orderBy(sql`lower(${participants.lname})`, sql`lower(${participants.fname})`, asc(participants.id))
        .limit(SEARCH_RESULT_LIMIT);
      return { response: rows };
    },
  );
}

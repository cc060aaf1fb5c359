/**
 * GET /control/studies/{studyId}/sites/{siteId}/participants: a site's participants, sorted and
 * paged (browsing a site as REDCap's and Castor's record lists do, beside the
 * search).
 *
 * Paging is by keyset: each page answers `next_cursor`, an opaque text naming the last row's sort
 * key, and the next page starts after it. A page costs the same wherever it is in the list (no
 * OFFSET), and a participant added or removed between two pages shifts nothing: paging through
 * every page answers each participant exactly once, in order.
 */
import * as z from "zod/mini";

import { PARTICIPANT_LIST_ORDERS, PARTICIPANT_LIST_SORTS } from "./participant-list-sorts.ts";

export {
  PARTICIPANT_LIST_ORDERS,
  PARTICIPANT_LIST_SORTS,
  type ParticipantListOrder,
  type ParticipantListSort,
} from "./participant-list-sorts.ts";

export const PARTICIPANT_LIST_DEFAULT_LIMIT = 50;
export const PARTICIPANT_LIST_MAX_LIMIT = 100;
/** A cursor is base64url of a short JSON array: names are bounded, so is the cursor. */
export const PARTICIPANT_LIST_CURSOR_MAX_LENGTH = 2048;

export const participantListQuery = z.object({
  /**
   * last_name: last name, then first name (case ignored), then id; subject_id: subject id (blank
   * ones first), then id; enrolled: the order the participants were enrolled in (their id).
   */
  sort: z._default(
    z.enum(PARTICIPANT_LIST_SORTS, {
      error: `sort must be one of ${PARTICIPANT_LIST_SORTS.join(", ")}`,
    }),
    "last_name",
  ),
  order: z._default(
    z.enum(PARTICIPANT_LIST_ORDERS, { error: `order must be one of ${PARTICIPANT_LIST_ORDERS.join(", ")}` }),
    "asc",
  ),
  limit: z._default(
    z.coerce
      .number({ error: "limit must be a number" })
      .check(
        z.int("limit must be a whole number"),
        z.minimum(1, "limit must be at least 1"),
        z.maximum(PARTICIPANT_LIST_MAX_LIMIT, `limit must be at most ${PARTICIPANT_LIST_MAX_LIMIT}`),
      ),
    PARTICIPANT_LIST_DEFAULT_LIMIT,
  ),
  /** The previous page's next_cursor, with the same sort and order; absent for the first page. */
  cursor: z.optional(
    z
      .string({ error: "cursor must be text" })
      .check(
        z.minLength(1, "cursor must not be empty"),
        z.maxLength(
          PARTICIPANT_LIST_CURSOR_MAX_LENGTH,
          `cursor must be at most ${PARTICIPANT_LIST_CURSOR_MAX_LENGTH} characters`,
        ),
        z.regex(/^[A-Za-z0-9_-]+$/, "cursor is not a cursor this list answered"),
      ),
  ),
});
export type ParticipantListQuery = z.input<typeof participantListQuery>;

export const participantListRow = z.object({
  id: z.number().check(z.int()),
  fname: z.string(),
  lname: z.string(),
  /** Blank ('') while the participant has none (screening). */
  subject_id: z.string(),
  /** YYYY-MM-DD, or null when unknown. */
  date_of_birth: z.nullable(z.string()),
  /** ISO timestamp of the enrolment; null for participants enrolled before it was recorded. */
  enrolled_at: z.nullable(z.string()),
});
export type ParticipantListRow = z.infer<typeof participantListRow>;

export const participantListResponse = z.object({
  participants: z.array(participantListRow).check(z.maxLength(PARTICIPANT_LIST_MAX_LIMIT)),
  /** The site's number of participants, on the first page (no cursor); null on the next ones. */
  total: z.nullable(z.number().check(z.int(), z.nonnegative())),
  /** Give it as `cursor` for the next page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});
export type ParticipantListResponse = z.infer<typeof participantListResponse>;

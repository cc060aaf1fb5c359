/**
 * The participant calls of spec 01 section 7: one participant, and the clinician search.
 * Both are scoped to a study and site of the URL that the user's permissions name.
 */
import * as z from "zod/mini";
import { participantConsent } from "./consent-gate.ts";
import { rowId as idParam } from "./input-bounds.ts";

/** /control/studies/{studyId}/sites/{siteId}/... */
export const siteParams = z.object({ studyId: idParam("studyId"), siteId: idParam("siteId") });
export type SiteParams = z.infer<typeof siteParams>;

/** GET /control/studies/{studyId}/sites/{siteId}/participants/{participantId} */
export const participantParams = z.extend(siteParams, { participantId: idParam("participantId") });
export type ParticipantParams = z.infer<typeof participantParams>;

export const participantGender = z.nullable(z.enum(["m", "f", "o"]));

export const participantResponse = z.object({
  id: z.number().check(z.int()),
  fname: z.string(),
  lname: z.string(),
  gender: participantGender,
  /** YYYY-MM-DD, or null when unknown. */
  date_of_birth: z.nullable(z.string()),
  /** ISO timestamp of the participant's first sign-in, or null before it. */
  first_login_timestamp: z.nullable(z.string()),
  /** ISO timestamp. */
  last_updated: z.string(),
  num_completed_instruments: z.number().check(z.int(), z.nonnegative()),
  num_total_instruments: z.number().check(z.int(), z.nonnegative()),
  study_name: z.string(),
  /** Blank ('') while the participant has none (screening). */
  subject_id: z.string(),
  /** Where visit join links go; null when none was given. */
  email: z.nullable(z.string()),
  /**
   * The consents still holding this participant's ratings back (core/contracts/consent-gate.ts):
   * empty unless the study asks consent first. Optional on the wire: a participant cached on a
   * device by an earlier release has none.
   */
  consents_holding_back: z.optional(z.array(participantConsent)),
});
export type ParticipantResponse = z.infer<typeof participantResponse>;

/** The most rows one search answers: refine the search text to see others. */
export const SEARCH_RESULT_LIMIT = 200;
export const SEARCH_VALUE_MAX_LENGTH = 100;

/**
 * GET /control/studies/{studyId}/sites/{siteId}/clinro_search?search_value={text}
 *
 * Case-insensitive substring match over first name, last name and subject id. Text with several
 * words matches participants for whom every word is found in one of those fields, so
 * 'amelia anderson' finds Amelia Anderson; a single word behaves as a plain substring match.
 * Answers at most SEARCH_RESULT_LIMIT rows, ordered by last name, then first name, then id.
 */
export const participantSearchQuery = z.object({
  search_value: z
    .string({ error: "search_value is required" })
    .check(
      z.trim(),
      z.minLength(1, "search_value must not be blank: give part of a name or subject id"),
      z.maxLength(
        SEARCH_VALUE_MAX_LENGTH,
        `search_value must be at most ${SEARCH_VALUE_MAX_LENGTH} characters`,
      ),
    ),
});
export type ParticipantSearchQuery = z.infer<typeof participantSearchQuery>;

export const participantSearchResult = z.object({
  id: z.number().check(z.int()),
  fname: z.string(),
  lname: z.string(),
  site_id: z.number().check(z.int()),
  study_id: z.number().check(z.int()),
  /** Blank ('') when absent. */
  subject_id: z.string(),
  /** YYYY-MM-DD, or null when unknown. */
  date_of_birth: z.nullable(z.string()),
});
export type ParticipantSearchResult = z.infer<typeof participantSearchResult>;

export const participantSearchResponse = z.object({
  response: z.array(participantSearchResult).check(z.maxLength(SEARCH_RESULT_LIMIT)),
});
export type ParticipantSearchResponse = z.infer<typeof participantSearchResponse>;

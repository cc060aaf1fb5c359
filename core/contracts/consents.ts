/**
 * The consents list of spec 02 sections 3 and 7: GET /control/v2/clinro/me/consents, optional
 * study_id and site_id, answering the consents of the user's studies grouped by study. Each item
 * carries missing_consents: how many participants of the user's permitted sites (only site_id's
 * when given) have not finished that consent, i.e. their status is neither complete nor declined.
 */
import * as z from "zod/mini";
import { rowId } from "./input-bounds.ts";

export const CONSENT_PARTICIPANT_STATUSES = [
  "awaiting_participant",
  "awaiting_clinro",
  "awaiting_witness",
  "complete",
  "declined",
] as const;
export const consentParticipantStatus = z.enum(CONSENT_PARTICIPANT_STATUSES);
export type ConsentParticipantStatus = z.infer<typeof consentParticipantStatus>;

/** Statuses that leave nothing to do: every other status counts as a missing consent. */
export const FINISHED_CONSENT_STATUSES = [
  "complete",
  "declined",
] as const satisfies ConsentParticipantStatus[];

/** An id in a path or query (core/contracts/input-bounds.ts). */
export const idValue = rowId;

/** GET /control/v2/clinro/me/consents, optional ?study_id and ?site_id */
export const myConsentsQuery = z.object({
  study_id: z.optional(idValue("study_id")),
  site_id: z.optional(idValue("site_id")),
});
export type MyConsentsQuery = z.infer<typeof myConsentsQuery>;

const timestamp = z.iso.datetime({ offset: true });

export const consentListItem = z.object({
  consent_id: z.number().check(z.int()),
  title: z.string(),
  /** CONSENT for consents; kept open for other kinds. */
  type: z.string(),
  version: z.number().check(z.int()),
  date_deployed: timestamp,
  missing_consents: z.number().check(z.int(), z.nonnegative()),
});
export type ConsentListItem = z.infer<typeof consentListItem>;

export const studyConsents = z.object({
  study_id: z.number().check(z.int()),
  study_name: z.string(),
  consents: z.array(consentListItem),
});
export type StudyConsents = z.infer<typeof studyConsents>;

export const myConsentsResponse = z.object({ consents: z.array(studyConsents) });
export type MyConsentsResponse = z.infer<typeof myConsentsResponse>;

/** The sum of missing_consents over one study's consents; undefined when the study is not listed. */
export function missingConsentsOf(response: MyConsentsResponse, studyId: number) {
  const study = response.consents.find((entry) => entry.study_id === studyId);
  return study?.consents.reduce((sum, consent) => sum + consent.missing_consents, 0);
}

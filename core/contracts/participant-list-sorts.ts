/**
 * The orders of a site's participant list (participant-list.ts), apart from its schemas: the
 * router reads them from the URL and stays free of zod in the app's first download.
 */

/** The orders the list offers; each has an index (server/db/schema.ts) that answers it. */
export const PARTICIPANT_LIST_SORTS = ["last_name", "subject_id", "enrolled"] as const;
export type ParticipantListSort = (typeof PARTICIPANT_LIST_SORTS)[number];
export const PARTICIPANT_LIST_ORDERS = ["asc", "desc"] as const;
export type ParticipantListOrder = (typeof PARTICIPANT_LIST_ORDERS)[number];

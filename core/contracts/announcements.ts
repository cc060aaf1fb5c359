/**
 * Announcements (the inbox, spec 02 sections 2, 3 and 7): what the list call answers, what an
 * author sends, the HTML allow-list both sanitisers apply (the server's when an announcement is
 * stored, the browser's when it is shown). The onboarding cards are in onboarding.ts.
 */
import * as z from "zod/mini";
import { bodyId, rowId } from "./input-bounds.ts";

/** Tags an announcement's HTML may hold; anything else is dropped (its text kept, for most). */
export const ANNOUNCEMENT_ALLOWED_TAGS = [
  "p",
  "br",
  "strong",
  "em",
  "u",
  "s",
  "ul",
  "ol",
  "li",
  "a",
  "h2",
  "h3",
  "h4",
  "blockquote",
] as const;
/** The only attribute kept is a link's href (target and rel are set by the sanitisers). */
export const ANNOUNCEMENT_ALLOWED_SCHEMES = ["http", "https", "mailto"] as const;
/** What every kept link carries: a new tab that cannot reach back to the portal. */
export const ANNOUNCEMENT_LINK_TARGET = "_blank";
export const ANNOUNCEMENT_LINK_REL = "noopener noreferrer";

export const ANNOUNCEMENT_TITLE_MAX = 200;
/** HTML as sent, before sanitising. */
export const ANNOUNCEMENT_CONTENT_MAX = 50_000;

/** One announcement as the signed-in user sees it: the spec's fields, then who sent it where. */
export const announcement = z.object({
  id: z.number().check(z.int()),
  /** ISO time it was sent. */
  sent: z.string(),
  /** Whether this user has read it (its read event reached the server). */
  read: z.boolean(),
  title: z.string(),
  /** Sanitised HTML. */
  content: z.string(),
  /** The author's name, or empty for one the system sent (the demo seed without an author). */
  sender: z.string(),
  study_id: z.number().check(z.int()),
  study_name: z.string(),
  /** Null: to every site of the study. */
  site_id: z.nullable(z.number().check(z.int())),
  site_label: z.nullable(z.string()),
});
export type Announcement = z.infer<typeof announcement>;

/** GET /control/participants/me/announcements: newest id first. */
export const announcementsResponse = z.object({ announcements: z.array(announcement) });
export type AnnouncementsResponse = z.infer<typeof announcementsResponse>;

/** POST /control/announcements: to a study's staff, or one site's when site_id is given. */
export const postAnnouncementRequest = z.object({
  study_id: bodyId("study_id"),
  site_id: z.optional(z.nullable(bodyId("site_id"))),
  title: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "title must not be empty"),
      z.maxLength(ANNOUNCEMENT_TITLE_MAX, `title must be at most ${ANNOUNCEMENT_TITLE_MAX} characters`),
    ),
  content: z
    .string()
    .check(
      z.minLength(1, "content must not be empty"),
      z.maxLength(ANNOUNCEMENT_CONTENT_MAX, `content must be at most ${ANNOUNCEMENT_CONTENT_MAX} characters`),
    ),
});
export type PostAnnouncementRequest = z.infer<typeof postAnnouncementRequest>;

/**
 * An ANNOUNCEMENT instrument of a study (spec 02 sections 3 and 7): in the newer instrument
 * architecture the study team's announcements are delivered as instruments with the
 * participants' activities, and the inbox lists them. One entry per
 * instrument, however many participants it was delivered to.
 */
export const announcementInstrument = z.object({
  instrument_id: z.number().check(z.int()),
  /** ISO time of its first delivery to a participant at one of the user's sites. */
  sent: z.string(),
  /** Whether this user's read event naming the instrument (and no participant) reached the server. */
  read: z.boolean(),
  /** The instrument's display name. */
  title: z.string(),
  /** Its text (metadata.content), sanitised HTML; empty when it has none. */
  content: z.string(),
  study_id: z.number().check(z.int()),
  study_name: z.string(),
});
export type AnnouncementInstrument = z.infer<typeof announcementInstrument>;

/** GET /control/clinro/me/announcement_instruments?study_id={studyId} */
export const announcementInstrumentsQuery = z.object({ study_id: rowId("study_id") });
/** Newest first. */
export const announcementInstrumentsResponse = z.object({ announcements: z.array(announcementInstrument) });
export type AnnouncementInstrumentsResponse = z.infer<typeof announcementInstrumentsResponse>;

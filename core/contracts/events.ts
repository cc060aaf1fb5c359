import * as z from "zod/mini";
import { bodyId, isoMoment, safeText } from "./input-bounds.ts";
import { PLATFORM } from "./roles.ts";

export const EVENT_TYPES = [
  "delivered",
  "visible",
  "seen",
  "completed",
  "submitFailed",
  "downloadFailed",
  "cancelled",
  "parsingFailed",
  "read",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const id = z.union([z.number().check(z.int()), safeText().check(z.minLength(1), z.maxLength(64))]);

/** One event record: type, timestamp, info, study and participant (spec 02 sections 3 and 7). */
export const eventRecord = z.object({
  type: z.enum(EVENT_TYPES),
  timestamp: isoMoment(),
  info: z._default(
    z.catchall(
      z.object({
        instrument_id: z.optional(id),
        instance_id: z.optional(id),
        announcement_id: z.optional(id),
        study_id: z.optional(id),
      }),
      z.unknown(),
    ),
    {},
  ),
  /** A study of the user's; the participant, when named, is of this study. */
  study_id: z.optional(bodyId("study_id")),
  /** The participant's id; absent for announcement events. */
  participant: z.optional(bodyId("participant")),
});
export type EventRecord = z.infer<typeof eventRecord>;

export const MAX_EVENTS_PER_REQUEST = 500;

/** POST /control/participants/me/events?platform=clinro */
export const postEventsRequest = z
  .array(eventRecord)
  .check(z.minLength(1), z.maxLength(MAX_EVENTS_PER_REQUEST));
export const postEventsQuery = z.object({ platform: z.literal(PLATFORM) });
export const postEventsResponse = z.object({ received: z.number().check(z.int()) });

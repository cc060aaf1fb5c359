import { z } from "zod";
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

const id = z.union([z.number().int(), safeText().min(1).max(64)]);

/** One event record: type, timestamp, info, study and participant (spec 02 sections 3 and 7). */
export const eventRecord = z.object({
  type: z.enum(EVENT_TYPES),
  timestamp: isoMoment(),
  info: z
    .object({
      instrument_id: id.optional(),
      instance_id: id.optional(),
      announcement_id: id.optional(),
      study_id: id.optional(),
    })
    .catchall(z.unknown())
    .default({}),
  /** A study of the user's; the participant, when named, is of this study. */
  study_id: bodyId("study_id").optional(),
  /** The participant's id; absent for announcement events. */
  participant: bodyId("participant").optional(),
});
export type EventRecord = z.infer<typeof eventRecord>;

export const MAX_EVENTS_PER_REQUEST = 500;

/** POST /control/participants/me/events?platform=clinro */
export const postEventsRequest = z.array(eventRecord).min(1).max(MAX_EVENTS_PER_REQUEST);
export const postEventsQuery = z.object({ platform: z.literal(PLATFORM) });
export const postEventsResponse = z.object({ received: z.number().int() });

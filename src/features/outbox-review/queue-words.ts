/**
 * What the queue page says about people and deliveries:
 * - whose items a group holds: the participant's name and subject id, from what this device
 *   knows (the participant as last fetched, kept for offline use; a participant added on this
 *   device from their waiting enrolment), else their number;
 * - which items left the queue since the page opened without being discarded: the server stored
 *   them, and the page says so ("3 forms sent").
 */
import type { QueryClient } from "@tanstack/react-query";
import { participantKeys } from "../../api/participants-api.ts";
import type { ReviewItem } from "./visible-items.ts";

export type ParticipantWords = { name: string; subjectId: string };

type KnownParticipant = { id: number; fname: string; lname: string; subject_id: string };

function isKnownParticipant(value: unknown): value is KnownParticipant {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.id === "number" &&
    typeof candidate.fname === "string" &&
    typeof candidate.lname === "string" &&
    typeof candidate.subject_id === "string"
  );
}

/** The participant as a page of this device last fetched them, if any did. */
export function cachedParticipant(
  queryClient: QueryClient,
  participantId: number,
): ParticipantWords | undefined {
  for (const [, data] of queryClient.getQueriesData({ queryKey: participantKeys.all })) {
    // A participant's own query, or a search or list that found them.
    const listed = (data as { participants?: unknown } | undefined)?.participants;
    const candidates: unknown[] = Array.isArray(data) ? data : Array.isArray(listed) ? listed : [data];
    const found = candidates.find(
      (candidate): candidate is KnownParticipant =>
        isKnownParticipant(candidate) && candidate.id === participantId,
    );
    if (found) return { name: `${found.fname} ${found.lname}`.trim(), subjectId: found.subject_id };
  }
  return undefined;
}

/** A participant added on this device: their waiting enrolment names them (own items only). */
export function enrolledHere(
  items: readonly ReviewItem[],
  participantId: number,
): ParticipantWords | undefined {
  for (const item of items) {
    if (item.kind !== "enrolment" || item.participantId !== participantId) continue;
    const body = item.request?.body;
    const value = body?.type === "json" ? (body.value as Record<string, unknown> | null) : null;
    if (value && typeof value.fname === "string" && typeof value.lname === "string") {
      return {
        name: `${value.fname} ${value.lname}`.trim(),
        subjectId: typeof value.subject_id === "string" ? value.subject_id : "",
      };
    }
  }
  return undefined;
}

/**
 * The items of `before` that are not in `after` and were not discarded here: delivered. An item
 * counts once: `alreadySent` are those reported before.
 */
export function leftTheQueue(
  before: readonly ReviewItem[],
  after: readonly ReviewItem[],
  discarded: ReadonlySet<string>,
  alreadySent: ReadonlySet<string> = new Set(),
): ReviewItem[] {
  const still = new Set(after.map((item) => item.id));
  return before.filter((item) => !still.has(item.id) && !discarded.has(item.id) && !alreadySent.has(item.id));
}

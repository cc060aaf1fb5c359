/**
 * Offline enrolment: a participant added on this device is usable before the server knows them.
 * The device names them by a provisional id, a negative number no server row can have, in every
 * write it queues for them (the outbox item's participantId, the paths, an upload's
 * participant_id, an event's participant, the photo and signature file names), so the pages that
 * queue writes for a participant work unchanged. Nothing that holds a provisional id is ever sent:
 *
 * - the enrolment itself (kind "enrolment") is queued first, under the provisional id, and sent
 *   with the participant's client_id (a UUID), so a repeat finds the participant it made;
 * - every later write for that participant waits for the enrolment (dependsOn, and the same
 *   lane, oldest first);
 * - when the server answers the enrolment with the participant's id, that id is recorded in a
 *   durable map (provisional id -> server id) BEFORE the enrolment leaves the outbox, and the
 *   waiting writes are rewritten with it; a write still holding the provisional id when its turn
 *   comes is rewritten from the map just before it is sent;
 * - a refused enrolment (e.g. 409, the subject id is taken) stays in the outbox, failed and
 *   shown, and the writes waiting for it are kept: never sent to anyone else.
 *
 * Plain data in, plain data out: no DOM, no IndexedDB here (participant-id-store.ts keeps the map).
 */
import { MAX_ID } from "../../core/contracts/input-bounds.ts";
import type { OutboxItem, OutboxRequest } from "./outbox-item.ts";

/** What the map keeps for a provisional id once the server has enrolled the participant. */
export type EnrolledParticipant = {
  /** The server's id of the participant. */
  participantId: number;
  /** The UUID the enrolment was sent under. */
  clientId: string;
};

/** The durable map from a provisional id to the enrolled participant (IndexedDB in the browser). */
export type ParticipantIdMap = {
  get: (provisionalId: number) => Promise<EnrolledParticipant | undefined>;
  set: (provisionalId: number, enrolled: EnrolledParticipant) => Promise<void>;
};

/** A map in memory: for tests, and a drain given none (nothing then outlives the page). */
export function memoryParticipantIds(initial: Record<number, EnrolledParticipant> = {}): ParticipantIdMap & {
  entries: Map<number, EnrolledParticipant>;
} {
  const entries = new Map(Object.entries(initial).map(([key, value]) => [Number(key), value]));
  return {
    entries,
    get: async (provisionalId) => entries.get(provisionalId),
    set: async (provisionalId, enrolled) => {
      entries.set(provisionalId, enrolled);
    },
  };
}

/** A provisional id: negative, within the range of a server id (the routes accept it). */
export function isProvisionalParticipantId(id: number | undefined): id is number {
  return id !== undefined && Number.isSafeInteger(id) && id < 0 && id >= -MAX_ID;
}

/** A new provisional id, different from those already in use on this device. */
export function newProvisionalParticipantId(
  taken: ReadonlySet<number> = new Set(),
  random: () => number = Math.random,
): number {
  for (;;) {
    const id = -(1 + Math.floor(random() * MAX_ID));
    if (!taken.has(id)) return id;
  }
}

/** JSON keys that name a participant: an event's `participant`, an upload's `participant_id`. */
const PARTICIPANT_KEY = /participant/i;

/**
 * A text naming participant `from`: the whole text (a path segment, a form field), or a file name
 * made with it (a photo's `study_participant_instrument_question_stamp.jpeg`, a signature's
 * `consent_participant_...png`), where the id stands between underscores. A provisional id is a
 * large negative number, so `_-1234567890_` names nothing else.
 */
function rewriteText(text: string, from: number, to: number) {
  if (text === String(from)) return String(to);
  return text.split(`_${from}_`).join(`_${to}_`);
}

function rewriteJson(value: unknown, from: number, to: number, underParticipantKey: boolean): unknown {
  if (Array.isArray(value)) return value.map((entry) => rewriteJson(entry, from, to, underParticipantKey));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        rewriteJson(entry, from, to, underParticipantKey || PARTICIPANT_KEY.test(key)),
      ]),
    );
  }
  if (typeof value === "string") return rewriteText(value, from, to);
  return underParticipantKey && value === from ? to : value;
}

/**
 * A request with every mention of participant `from` naming `to`: path segments, query values,
 * form fields and file names, JSON strings (photo names in answers and attachments) and the
 * numbers under a key naming a participant.
 */
export function rewriteRequestParticipant(request: OutboxRequest, from: number, to: number): OutboxRequest {
  const path = request.path
    .split("/")
    .map((segment) => rewriteText(segment, from, to))
    .join("/");
  const query =
    request.query &&
    Object.fromEntries(
      Object.entries(request.query).map(([key, value]) => [key, rewriteText(value, from, to)]),
    );
  const { body } = request;
  const rewritten =
    body.type === "empty"
      ? body
      : body.type === "json"
        ? { type: "json" as const, value: rewriteJson(body.value, from, to, false) }
        : {
            ...body,
            fields: Object.fromEntries(
              Object.entries(body.fields).map(([key, value]) => [key, rewriteText(value, from, to)]),
            ),
            files: body.files.map((file) => ({ ...file, fileName: rewriteText(file.fileName, from, to) })),
          };
  return { ...request, path, ...(query ? { query } : {}), body: rewritten };
}

/** The item as it must be sent once the provisional participant has the server id `to`. */
export function withEnrolledParticipant(item: OutboxItem, to: number): OutboxItem {
  const from = item.participantId;
  if (!isProvisionalParticipantId(from)) return item;
  return { ...item, participantId: to, request: rewriteRequestParticipant(item.request, from, to) };
}

/**
 * The participant an enrolment's 2xx answer names, when it is the one sent under `clientId`;
 * undefined for any other answer (the server's replay of the enrolment answers the same body).
 */
export function enrolledParticipantOf(body: unknown, clientId: string): EnrolledParticipant | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const { id, client_id: answeredClientId } = body as { id?: unknown; client_id?: unknown };
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) return undefined;
  if (answeredClientId !== clientId) return undefined;
  return { participantId: id, clientId };
}

/** The client_id an enrolment item is sent under. */
export function clientIdOfEnrolment(item: OutboxItem): string | undefined {
  if (item.kind !== "enrolment" || item.request.body.type !== "json") return undefined;
  const value = item.request.body.value as { client_id?: unknown } | null;
  return typeof value?.client_id === "string" ? value.client_id : undefined;
}

/**
 * The durable map of offline enrolment (provisional-participants.ts): which server id each
 * provisional participant of this device was given. Its own IndexedDB database, so that a write
 * queued for a participant after their enrolment left the outbox still finds them, and a page
 * opened at the provisional id can move to the participant's real page. Entries are small and
 * kept: a provisional id is never reused for another participant.
 */
import { createStore, get, set } from "idb-keyval";
import type { EnrolledParticipant, ParticipantIdMap } from "./provisional-participants.ts";

const idStore = createStore("clinro-participant-ids", "ids");

export const indexedDbParticipantIds: ParticipantIdMap = {
  get: async (provisionalId) => {
    const found = await get<unknown>(provisionalId, idStore);
    if (found === null || typeof found !== "object") return undefined;
    const { participantId, clientId } = found as Partial<EnrolledParticipant>;
    return typeof participantId === "number" && typeof clientId === "string"
      ? { participantId, clientId }
      : undefined;
  },
  set: (provisionalId, enrolled) => set(provisionalId, enrolled, idStore),
};

/**
 * The page of a participant added on this device whose enrolment the server has not answered
 * yet (offline enrolment): what it shows, derived from the outbox and the query cache. Plain data
 * in, plain data out.
 *
 * The server makes the participant's instrument deliveries and consent offers when it enrols
 * them, so none exist on the device: the page offers the study's clinician instruments this
 * device has already seen in some participant's lists (and has the definitions of, the service
 * worker keeps them), each opened without a delivery; the submission then completes the
 * delivery the server made at enrolment (the oldest open one) or a new one.
 */
import {
  INSTRUMENT_TYPE,
  type FormItem,
  type InstrumentWithInstances,
} from "../../../core/contracts/instrument-lists.ts";
import { mayAdminister } from "../../../core/contracts/instrument-permission.ts";
import type { EnrolParticipantRequest } from "../../../core/contracts/enrolment.ts";
import type { OutboxItem, OutboxItemStatus } from "../../outbox/outbox-item.ts";

export type PendingEnrolment = {
  item: OutboxItem & { status: OutboxItemStatus };
  body: EnrolParticipantRequest;
  /** waiting: not answered yet; refused: the server refused it (kept, to correct). */
  state: "waiting" | "refused";
};

/** The enrolment the outbox holds for a provisional participant, with its body. */
export function pendingEnrolmentOf(
  items: readonly (OutboxItem & { status: OutboxItemStatus })[],
  provisionalId: number,
  readBody: (value: unknown) => EnrolParticipantRequest | undefined,
): PendingEnrolment | undefined {
  const item = items.find(
    (candidate) => candidate.kind === "enrolment" && candidate.participantId === provisionalId,
  );
  if (!item || item.request.body.type !== "json") return undefined;
  const body = readBody(item.request.body.value);
  if (!body) return undefined;
  return { item, body, state: item.state === "failed" ? "refused" : "waiting" };
}

/** The other writes queued for the participant, oldest first (what waits for the enrolment). */
export function writesWaitingFor(items: readonly OutboxItem[], provisionalId: number) {
  return items.filter((item) => item.kind !== "enrolment" && item.participantId === provisionalId);
}

export type OfflineInstrument = { instrumentId: number; name: string; segment: string };

type CachedList = { instruments: readonly (FormItem | InstrumentWithInstances)[] };

/** The last segment of an instrument's url: the {instrument} of the instrument route. */
function segmentOf(url: string) {
  return url.split("/").filter(Boolean).at(-1) ?? "";
}

/**
 * The study's clinician instruments in the lists this device has cached (forms or instances,
 * any participant of the study), that the user's role may administer, by name.
 */
export function offlineInstruments(
  cached: readonly { studyId: number; list: CachedList }[],
  studyId: number,
  role: string | undefined,
): OfflineInstrument[] {
  const found = new Map<number, OfflineInstrument>();
  for (const { list } of cached.filter((entry) => entry.studyId === studyId)) {
    for (const instrument of list.instruments) {
      const type = "type" in instrument ? instrument.type : instrument.instrument_type;
      if (type !== INSTRUMENT_TYPE.clinician || !mayAdminister(instrument.permissions, role)) continue;
      const segment = segmentOf(instrument.url);
      if (!segment || found.has(instrument.instrument_id)) continue;
      found.set(instrument.instrument_id, {
        instrumentId: instrument.instrument_id,
        name: instrument.name,
        segment,
      });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

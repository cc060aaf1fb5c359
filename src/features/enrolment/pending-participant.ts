/**
 * The page of a participant added on this device whose enrolment the server has not answered
 * yet (offline enrolment): what it shows, derived from the outbox and the query cache. Plain data
 * in, plain data out.
 *
 * The server makes the participant's instrument deliveries and consent offers when it enrols
 * them, so none exist on the device: the page offers the study's clinician instruments this
 * device has already seen in some participant's lists (and has the definitions of, the service
 * worker keeps them), each opened without a delivery; the submission then completes the
 * delivery the server made at enrolment (the oldest open one) or a new one. Likewise the consents:
 * the server offers each deployed consent at enrolment (awaiting the participant), and a consent
 * signed here from its blank definition is sent after the enrolment, to that offer.
 */
import {
  INSTRUMENT_TYPE,
  type FormItem,
  type InstrumentWithInstances,
} from "../../../core/contracts/instrument-lists.ts";
import { mayAdminister } from "../../../core/contracts/instrument-permission.ts";
import type { MyConsentsResponse } from "../../../core/contracts/consents.ts";
import type { OutboxItem } from "../../outbox/outbox-item.ts";

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

export type OfflineConsent = { consentId: number; version: number; title: string };

/**
 * The study's consents this device can have signed offline for a participant the server does not
 * know yet: those of the site's cached consents list whose blank definition is cached too
 * (use-offline-consents-prefetch.ts keeps both), less those already signed on this device and
 * waiting to be sent (a second session would be refused once the first arrives). By title.
 */
export function offlineConsents(
  list: MyConsentsResponse | undefined,
  studyId: number,
  hasBlank: (consentId: number, version: number) => boolean,
  queued: readonly OutboxItem[],
): OfflineConsent[] {
  const signedHere = new Set(
    queued.flatMap((item) => {
      const body =
        item.kind === "consent" && item.request.body.type === "json" ? item.request.body.value : null;
      const consentId = (body as { consent_id?: unknown } | null)?.consent_id;
      return typeof consentId === "number" ? [consentId] : [];
    }),
  );
  const study = list?.consents.find((entry) => entry.study_id === studyId);
  return (study?.consents ?? [])
    .filter((consent) => hasBlank(consent.consent_id, consent.version) && !signedHere.has(consent.consent_id))
    .map((consent) => ({ consentId: consent.consent_id, version: consent.version, title: consent.title }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

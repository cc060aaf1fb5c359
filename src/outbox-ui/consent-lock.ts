/**
 * Consent first on the device (core/contracts/consent-gate.ts): what holds a participant's
 * instruments locked here and now. The server's list, as the participant call last answered it
 * (kept on the device, so it holds offline too), less the consents a signing waiting in the
 * outbox completes: that signing is sent before any rating queued after it.
 */
import { consentsStillHoldingBack, type ParticipantConsent } from "../../core/contracts/consent-gate.ts";
import type { ParticipantResponse } from "../../core/contracts/participant.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";

/** The consents completed by signings of this participant's still in the outbox (not failed). */
export function consentsCompletedOnDevice(items: readonly OutboxItem[], participantId: number): Set<number> {
  return new Set(
    items.flatMap((item) =>
      item.kind === "consent" &&
      item.participantId === participantId &&
      item.state !== "failed" &&
      item.consent?.completes === true
        ? [item.consent.id]
        : [],
    ),
  );
}

/** The consents locking the participant's instruments on this device; empty when none does. */
export function consentsLockingInstruments(
  participant: Pick<ParticipantResponse, "consents_holding_back"> | undefined,
  items: readonly OutboxItem[],
  participantId: number,
): ParticipantConsent[] {
  return consentsStillHoldingBack(
    participant?.consents_holding_back ?? [],
    consentsCompletedOnDevice(items, participantId),
  );
}

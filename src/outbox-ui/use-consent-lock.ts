/**
 * The consents locking a participant's instruments on this device (consent-lock.ts): from the
 * participant as last read (kept on the device) and the outbox. Empty while the participant is
 * not known here: the server still refuses a rating taken before consent, and the outbox holds it.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { ParticipantConsent } from "../../core/contracts/consent-gate.ts";
import { participantQuery } from "../api/participants-api.ts";
import { isProvisionalParticipantId } from "../outbox/provisional-participants.ts";
import { consentsLockingInstruments } from "./consent-lock.ts";
import { useOutboxItems } from "./use-outbox.ts";

export type ConsentLock = {
  /** The consents locking the instruments; empty when none does. */
  consents: ParticipantConsent[];
  /** False until the participant is read (or cannot be): the lock is not known yet. */
  known: boolean;
};

export function useConsentLock(studyId: number, siteId: number, participantId: number): ConsentLock {
  const provisional = isProvisionalParticipantId(participantId);
  const participant = useQuery({
    ...participantQuery(studyId, siteId, participantId),
    enabled: !provisional,
    retry: false,
  });
  const outbox = useOutboxItems();
  const consents = useMemo(
    () => consentsLockingInstruments(participant.data, outbox.data ?? [], participantId),
    [participant.data, outbox.data, participantId],
  );
  // Once read it stays known (errorUpdatedAt outlives a refetch): a participant the server would
  // not answer must not close and reopen the form, which would send its seen event again.
  const read = provisional || participant.data !== undefined || participant.errorUpdatedAt > 0;
  return { consents, known: read && outbox.data !== undefined };
}

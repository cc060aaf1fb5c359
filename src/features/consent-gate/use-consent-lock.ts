/**
 * The consents locking a participant's instruments on this device (consent-gate.ts): from the
 * participant as last read (kept on the device) and the outbox. Empty while the participant is
 * not known here: the server still refuses a rating taken before consent, and the outbox holds it.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { ParticipantConsent } from "../../../core/contracts/consent-gate.ts";
import { participantQuery } from "../../api/participants-api.ts";
import { isProvisionalParticipantId } from "../../outbox/provisional-participants.ts";
import { useOutboxItems } from "../../outbox-ui/use-outbox.ts";
import { consentsLockingInstruments } from "./consent-gate.ts";

export function useConsentLock(studyId: number, siteId: number, participantId: number): ParticipantConsent[] {
  const participant = useQuery({
    ...participantQuery(studyId, siteId, participantId),
    enabled: !isProvisionalParticipantId(participantId),
    retry: false,
  });
  const outbox = useOutboxItems();
  return useMemo(
    () => consentsLockingInstruments(participant.data, outbox.data ?? [], participantId),
    [participant.data, outbox.data, participantId],
  );
}

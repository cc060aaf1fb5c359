/**
 * The events a consent sends as an instrument does (spec 02 section 4, "Events sent"):
 * downloadFailed when its definition cannot be downloaded, parsingFailed for a question of a type
 * the app does not know, and submitFailed when a send of the signed consent fails. info names the
 * consent and version (consent_id, consent_version) where an instrument's names instrument_id.
 * They go through the outbox like every write (which gives a participant enrolled on this device
 * the server's id before the event is sent).
 */
import type { EventType } from "../../../core/contracts/events.ts";

export type ConsentEventContext = {
  studyId: number;
  participantId: number;
  consentId: number;
  consentVersion: number;
};

export function consentEvent(
  type: EventType,
  context: ConsentEventContext,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  return {
    type,
    timestamp: now.toISOString(),
    info: {
      consent_id: context.consentId,
      consent_version: context.consentVersion,
      study_id: context.studyId,
      ...extra,
    },
    study_id: context.studyId,
    participant: context.participantId,
  };
}

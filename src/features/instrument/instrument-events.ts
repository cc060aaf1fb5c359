/**
 * The instrument events of spec 02 section 4 ("Events sent") that the instrument page sends:
 * seen, completed, submitFailed, downloadFailed, cancelled and parsingFailed. They go through
 * the outbox like every write, so an event made offline is sent later, once.
 */
import type { EventType } from "../../../core/contracts/events.ts";

export type InstrumentEventContext = {
  studyId: number;
  participantId: number;
  instrumentId: number;
  /** The delivery being completed, when the page was opened from one. */
  instanceId?: number | undefined;
};

export function instrumentEvent(
  type: EventType,
  context: InstrumentEventContext,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  return {
    type,
    timestamp: now.toISOString(),
    info: {
      instrument_id: context.instrumentId,
      ...(context.instanceId === undefined ? {} : { instance_id: context.instanceId }),
      study_id: context.studyId,
      ...extra,
    },
    study_id: context.studyId,
    participant: context.participantId,
  };
}

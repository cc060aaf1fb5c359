/**
 * What a new participant is given by the study: one delivery (an instrument instance) of each of
 * the study's clinician-rated instruments that is not retired, by its schedule, and an offer of
 * each deployed consent that is not retired, at the consent's current version.
 *
 * A delivery starts `start_offset_days` after the enrolment and is visible for `visible_days`
 * (spec 02: the visible window is start plus visible_days): its expiration is the end of that
 * window. An instrument whose schedule is 'persistent' is shown until completed: its delivery
 * never expires (as the demo's adverse-event review). Recurring schemes (weekly) give the first
 * delivery here; the lists read instances, not schemes, so later ones are added as instances.
 */
import { and, eq, isNull, lte } from "drizzle-orm";
import { INSTRUMENT_TYPE, PERSISTENT_SCHEME } from "../../core/contracts/instrument-lists.ts";
import type { Transaction } from "../db/client.ts";
import {
  consentParticipants,
  consents,
  instrumentInstances,
  instruments,
  type InstrumentMetadata,
} from "../db/schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per insert: PostgreSQL takes at most 65,535 parameters in one statement. */
const INSERT_CHUNK = 2000;

export type ScheduledInstrument = {
  id: number;
  visibleDays: number;
  startOffsetDays: number;
  metadata: InstrumentMetadata;
};

export type Delivery = { instrumentId: number; startDate: Date; expiration: Date | null };

/** The deliveries one instrument's schedule gives a participant enrolled at `enrolledAt`. */
export function deliveriesOf(instrument: ScheduledInstrument, enrolledAt: Date): Delivery[] {
  const startDate = new Date(enrolledAt.getTime() + instrument.startOffsetDays * DAY_MS);
  const persistent = instrument.metadata.schedule?.recurring?.scheme === PERSISTENT_SCHEME;
  // visible_days defaults to 1 (spec 02); a zero or negative one still shows for a day.
  const visibleDays = Math.max(1, instrument.visibleDays);
  return [
    {
      instrumentId: instrument.id,
      startDate,
      expiration: persistent ? null : new Date(startDate.getTime() + visibleDays * DAY_MS),
    },
  ];
}

async function insertInChunks<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await insert(rows.slice(start, start + INSERT_CHUNK));
  }
}

/**
 * Gives new participants of a study their deliveries and consent offers, in the caller's
 * transaction. Answers how many of each were made.
 */
export async function giveStudySchedule(
  tx: Transaction,
  studyId: number,
  participantIds: number[],
  enrolledAt: Date,
): Promise<{ deliveries: number; consents: number }> {
  if (participantIds.length === 0) return { deliveries: 0, consents: 0 };
  const scheduled = await tx
    .select({
      id: instruments.id,
      visibleDays: instruments.visibleDays,
      startOffsetDays: instruments.startOffsetDays,
      metadata: instruments.metadata,
    })
    .from(instruments)
    .where(
      and(
        eq(instruments.studyId, studyId),
        eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician),
        isNull(instruments.retiredAt),
      ),
    )
    .orderBy(instruments.id);
  const deliveries = scheduled.flatMap((instrument) => deliveriesOf(instrument, enrolledAt));
  const instanceRows = participantIds.flatMap((participantId) =>
    deliveries.map((delivery) => ({ ...delivery, participantId })),
  );
  await insertInChunks(instanceRows, (chunk) => tx.insert(instrumentInstances).values(chunk));

  const offered = await tx
    .select({ id: consents.id, version: consents.version })
    .from(consents)
    .where(
      and(eq(consents.studyId, studyId), isNull(consents.retiredAt), lte(consents.dateDeployed, enrolledAt)),
    )
    .orderBy(consents.id);
  const offerRows = participantIds.flatMap((participantId) =>
    offered.map((consent) => ({
      consentId: consent.id,
      participantId,
      version: consent.version,
      status: "awaiting_participant" as const,
    })),
  );
  await insertInChunks(offerRows, (chunk) => tx.insert(consentParticipants).values(chunk));
  return { deliveries: instanceRows.length, consents: offerRows.length };
}

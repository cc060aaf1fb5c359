/**
 * Which instrument instances are still to be done, for the history's pending list, the pending
 * instruments call and the submission's choice of instance: not completed, started, and either
 * not expired or of an instrument whose schedule is 'persistent' (shown until completed).
 * The visible window and specific-time ranges are the client's to apply: they depend on the
 * device's clock and time zone (src/features/participant-home/instrument-lists.ts).
 */
import { and, gt, isNull, lte, or, sql, type Placeholder } from "drizzle-orm";
import { PERSISTENT_SCHEME } from "../../core/contracts/instrument-lists.ts";
import { instrumentInstances, instruments } from "../db/schema.ts";

/** A where-condition over instrument_instances joined with instruments. */
export function isOpenInstance(now: Date | Placeholder) {
  return and(
    isNull(instrumentInstances.completion),
    lte(instrumentInstances.startDate, now),
    or(
      isNull(instrumentInstances.expiration),
      gt(instrumentInstances.expiration, now),
      sql`${instruments.metadata} #>> '{schedule,recurring,scheme}' = ${PERSISTENT_SCHEME}`,
    ),
  );
}

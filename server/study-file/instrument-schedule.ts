/**
 * An instrument's schedule in the study file's terms, and where each part lives in the database:
 * start_offset_days and visible_days are columns; persistent is the metadata's
 * schedule.recurring.scheme "persistent"; specific_times are the metadata's visibility
 * "specific_time" with its visibilityRanges. Writing a schedule changes only those keys of the
 * metadata: anything else there (another recurring scheme's name, keys other tools wrote) stays.
 */
import { PERSISTENT_SCHEME, SPECIFIC_TIME_VISIBILITY } from "../../core/contracts/instrument-lists.ts";
import type { InstrumentMetadata } from "../db/schema.ts";
import type { ScheduleSpec, TimeWindow } from "./study-spec.ts";

type ScheduleColumns = { startOffsetDays: number; visibleDays: number; metadata: InstrumentMetadata };

/** The schedule an instrument row has. */
export function scheduleOf(row: ScheduleColumns): ScheduleSpec {
  const metadata = row.metadata;
  const ranges = metadata.visibilityRanges ?? [];
  return {
    startOffsetDays: row.startOffsetDays,
    visibleDays: row.visibleDays,
    persistent: metadata.schedule?.recurring?.scheme === PERSISTENT_SCHEME,
    specificTimes:
      metadata.visibility === SPECIFIC_TIME_VISIBILITY
        ? ranges.map((range) => ({ start: range.start, end: range.end }))
        : [],
  };
}

/** The metadata with the schedule's keys and display name set, everything else kept. */
export function metadataWith(
  current: InstrumentMetadata,
  schedule: ScheduleSpec,
  displayName: string,
): InstrumentMetadata {
  const next: InstrumentMetadata = { ...current, display_name: displayName };
  const recurring = { ...current.schedule?.recurring };
  if (schedule.persistent) recurring.scheme = PERSISTENT_SCHEME;
  else if (recurring.scheme === PERSISTENT_SCHEME) delete recurring.scheme;
  const scheduleKey: NonNullable<InstrumentMetadata["schedule"]> = { ...current.schedule, recurring };
  if (Object.keys(recurring).length === 0) delete scheduleKey.recurring;
  if (Object.keys(scheduleKey).length === 0) delete next.schedule;
  else next.schedule = scheduleKey;

  if (schedule.specificTimes.length > 0) {
    next.visibility = SPECIFIC_TIME_VISIBILITY;
    next.visibilityRanges = schedule.specificTimes.map((window) => ({ ...window }));
  } else if (current.visibility === SPECIFIC_TIME_VISIBILITY) {
    delete next.visibility;
    delete next.visibilityRanges;
  }
  return next;
}

/** "6:00-22:00, 23:00-1:00", or "none". */
export function describeWindows(windows: readonly TimeWindow[]) {
  return windows.length === 0 ? "none" : windows.map((window) => `${window.start}-${window.end}`).join(", ");
}

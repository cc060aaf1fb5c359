/**
 * The participant home's two lists (to-do and completed), from either source:
 * - the forms list, when the study's instrument architecture version is not above the default;
 * - the instruments with their instances otherwise (spec 01 section 4, "Newer architecture
 *   lists"; spec 02 sections 5 and 9).
 *
 * Rules, with `now` given so that they can be tested with fixed clocks:
 * - Only clinician (CLINRO) instruments are listed; announcements belong to the inbox.
 * - Completed tab: completed deliveries, and deliveries whose expiration is set and has passed
 *   without completion (shown with an expired marker). Rows are grouped under one heading per
 *   day (of completion, or of expiration), newest day first, newest row first.
 * - To-do (newer architecture): no completion, start_date arrived, and the visible window
 *   (start plus visible_days, default 1 day) not passed; the 'persistent' scheme ignores the
 *   window; a 'specific_time' instrument shows only while the local time is inside one of its
 *   visibilityRanges (h:mm).
 * - To-do (forms list): not completed, deployed, and not expired.
 * - A row is locked when the user's role in the study is not one of its permission codes.
 */
import { DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION } from "../../../core/contracts/instrument-architecture.ts";
import { isPermitted } from "../../../core/contracts/instrument-permission.ts";
import {
  DEFAULT_VISIBLE_DAYS,
  INSTRUMENT_TYPE,
  PERSISTENT_SCHEME,
  SPECIFIC_TIME_VISIBILITY,
  type FormItem,
  type InstrumentWithInstances,
  type VisibilityRange,
} from "../../../core/contracts/instrument-lists.ts";
import type { OutboxItem } from "../../outbox/outbox-item.ts";

/**
 * The default instrument architecture version (core/contracts/instrument-architecture.ts):
 * studies at this version or below use the forms list; above it, instruments with instances.
 */
export { DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION };
const DAY_MS = 24 * 60 * 60 * 1000;

export type ListSource = "forms" | "instances";

export function listSourceFor(architectureVersion: number | undefined): ListSource {
  return (architectureVersion ?? DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION) >
    DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION
    ? "instances"
    : "forms";
}

export type TodoRow = {
  key: string;
  instrumentId: number;
  instanceId: number;
  name: string;
  url: string;
  permissions: string[];
  locked: boolean;
  /** Shown because the time is inside one of its specific-time ranges: earns a visible event. */
  insideSpecificTime: boolean;
};

export type CompletedRow = {
  key: string;
  instrumentId: number;
  instanceId: number;
  name: string;
  /** ISO completion time; null for an expired row. */
  completedAt: string | null;
  completedBy: string | null;
  /** Set for a row that expired without completion: its expiration. */
  expiredAt: string | null;
};

export type CompletedGroup = {
  /** The local day of the group's rows, YYYY-MM-DD. */
  day: string;
  rows: CompletedRow[];
};

export type InstrumentLists = { todo: TodoRow[]; completed: CompletedGroup[] };

/** Minutes after midnight of an 'h:mm' time, or null when it is not one. */
export function minutesOfDay(time: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

/**
 * Whether the local time of `now` is inside one of the ranges: start included, end excluded;
 * a range whose end is before its start runs over midnight; equal ends mean the whole day.
 */
export function isWithinTimeRanges(ranges: readonly VisibilityRange[], now: Date) {
  const current = now.getHours() * 60 + now.getMinutes();
  return ranges.some((range) => {
    const start = minutesOfDay(range.start);
    const end = minutesOfDay(range.end);
    if (start === null || end === null) return false;
    if (start === end) return true;
    return start < end ? current >= start && current < end : current >= start || current < end;
  });
}

/** The local day (YYYY-MM-DD) of an ISO timestamp. */
function localDay(iso: string) {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const time = (iso: string | null) => (iso ? Date.parse(iso) : Number.NaN);
const hasPassed = (iso: string | null, now: Date) => iso !== null && time(iso) <= now.getTime();

function groupCompleted(rows: CompletedRow[]): CompletedGroup[] {
  const when = (row: CompletedRow) => (row.completedAt ?? row.expiredAt) as string;
  const sorted = [...rows].sort((a, b) => time(when(b)) - time(when(a)) || b.instanceId - a.instanceId);
  const groups: CompletedGroup[] = [];
  for (const row of sorted) {
    const day = localDay(when(row));
    const last = groups.at(-1);
    if (last?.day === day) last.rows.push(row);
    else groups.push({ day, rows: [row] });
  }
  return groups;
}

const byName = (a: TodoRow, b: TodoRow) => a.name.localeCompare(b.name) || a.instanceId - b.instanceId;

/** The lists from the forms list (older architecture). */
export function formLists(items: readonly FormItem[], role: string | undefined, now: Date): InstrumentLists {
  const todo: TodoRow[] = [];
  const completed: CompletedRow[] = [];
  for (const item of items) {
    if (item.type !== INSTRUMENT_TYPE.clinician) continue;
    const key = `${item.instrument_id}-${item.instance_id}`;
    if (item.completed !== null || hasPassed(item.expiration, now)) {
      completed.push({
        key,
        instrumentId: item.instrument_id,
        instanceId: item.instance_id,
        name: item.name,
        completedAt: item.completed,
        completedBy: item.completed !== null ? item.completedBy : null,
        expiredAt: item.completed === null ? item.expiration : null,
      });
    } else if (time(item.deployed) <= now.getTime()) {
      todo.push({
        key,
        instrumentId: item.instrument_id,
        instanceId: item.instance_id,
        name: item.name,
        url: item.url,
        permissions: item.permissions,
        locked: !isPermitted(item.permissions, role),
        insideSpecificTime: false,
      });
    }
  }
  return { todo: todo.sort(byName), completed: groupCompleted(completed) };
}

/** The lists from the instruments with their instances (newer architecture). */
export function instanceLists(
  instruments: readonly InstrumentWithInstances[],
  role: string | undefined,
  now: Date,
): InstrumentLists {
  const todo: TodoRow[] = [];
  const completed: CompletedRow[] = [];
  for (const instrument of instruments) {
    if (instrument.instrument_type !== INSTRUMENT_TYPE.clinician) continue;
    const name = instrument.metadata.display_name || instrument.name;
    const persistent = instrument.metadata.schedule?.recurring?.scheme === PERSISTENT_SCHEME;
    const ranges = instrument.metadata.visibilityRanges ?? [];
    const specificTime = instrument.metadata.visibility === SPECIFIC_TIME_VISIBILITY && ranges.length > 0;
    const windowMs = (instrument.visible_days ?? DEFAULT_VISIBLE_DAYS) * DAY_MS;
    for (const instance of instrument.instances) {
      const key = `${instrument.instrument_id}-${instance.instance_id}`;
      if (instance.completion !== null || hasPassed(instance.expiration, now)) {
        completed.push({
          key,
          instrumentId: instrument.instrument_id,
          instanceId: instance.instance_id,
          name,
          completedAt: instance.completion,
          completedBy: instance.completion !== null ? instance.who_completed_name : null,
          expiredAt: instance.completion === null ? instance.expiration : null,
        });
        continue;
      }
      const start = time(instance.start_date);
      const started = start <= now.getTime();
      const inWindow = persistent || now.getTime() < start + windowMs;
      const inTime = !specificTime || isWithinTimeRanges(ranges, now);
      if (started && inWindow && inTime) {
        todo.push({
          key,
          instrumentId: instrument.instrument_id,
          instanceId: instance.instance_id,
          name,
          url: instrument.url,
          permissions: instrument.permissions,
          locked: !isPermitted(instrument.permissions, role),
          insideSpecificTime: specificTime,
        });
      }
    }
  }
  return { todo: todo.sort(byName), completed: groupCompleted(completed) };
}

/** What the to-do list reads of an outbox item. */
export type QueuedWrite = Pick<OutboxItem, "kind" | "participantId" | "instrument">;

/**
 * The to-do rows whose submission is still in the outbox on this device: shown as
 * waiting to send, not offered again, until the server has it and the lists are read again. A
 * submission made without a delivery (no instance) holds every row of its instrument.
 */
export function queuedRowKeys(
  rows: readonly TodoRow[],
  items: readonly QueuedWrite[],
  participantId: number,
): Set<string> {
  const queued = items.filter(
    (item) => item.kind === "submission" && item.participantId === participantId && item.instrument,
  );
  return new Set(
    rows
      .filter((row) =>
        queued.some(
          ({ instrument }) =>
            instrument!.id === row.instrumentId &&
            (instrument!.instanceId === undefined || instrument!.instanceId === row.instanceId),
        ),
      )
      .map((row) => row.key),
  );
}

export type ListEventContext = { studyId: number; participantId: number };

/**
 * The events the newer architecture sends for its to-do rows: delivered for each, and visible
 * for those shown inside a specific-time window (spec 02 section 4, "Events sent").
 */
export function todoEvents(rows: readonly TodoRow[], context: ListEventContext, now: Date) {
  return rows.flatMap((row) => {
    const event = (type: "delivered" | "visible") => ({
      key: `${type}:${row.key}`,
      record: {
        type,
        timestamp: now.toISOString(),
        info: { instrument_id: row.instrumentId, instance_id: row.instanceId, study_id: context.studyId },
        study_id: context.studyId,
        participant: context.participantId,
      },
    });
    return row.insideSpecificTime ? [event("delivered"), event("visible")] : [event("delivered")];
  });
}

/** The read event sent, in the newer architecture, when an instrument is opened. */
export function readEvent(row: TodoRow, context: ListEventContext, now: Date) {
  return {
    type: "read" as const,
    timestamp: now.toISOString(),
    info: { instrument_id: row.instrumentId, instance_id: row.instanceId, study_id: context.studyId },
    study_id: context.studyId,
    participant: context.participantId,
  };
}

import { describe, expect, it } from "vitest";
import type { FormItem, InstrumentWithInstances } from "../../../core/contracts/instrument-lists.ts";
import { isPermitted } from "../../../core/contracts/instrument-permission.ts";
import {
  DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION,
  formLists,
  instanceLists,
  isWithinTimeRanges,
  listSourceFor,
  queuedRowKeys,
  readEvent,
  todoEvents,
  type TodoRow,
} from "./instrument-lists.ts";

/** Local wall-clock times: the rules read the clinician's local day and time of day. */
const local = (day: number, hour = 0, minute = 0) => new Date(2026, 2, day, hour, minute);
const iso = (day: number, hour = 0, minute = 0) => local(day, hour, minute).toISOString();
/** The fixed clock of these tests: 15 March 2026, 10:30 local time. */
const NOW = local(15, 10, 30);

describe("list source: forms list up to the default architecture version, instances above it", () => {
  it.each<[number | undefined, string]>([
    [undefined, "forms"],
    [0, "forms"],
    [1, "forms"],
    [2, "instances"],
    [7, "instances"],
  ])("version %s reads the %s list", (version, source) => {
    expect(listSourceFor(version)).toBe(source);
  });

  it("takes 1 as the default version", () => {
    expect(DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION).toBe(1);
  });
});

describe("form access: the user's role in the study must be one of the form's codes", () => {
  it.each<[string[], string | undefined, boolean]>([
    [["16", "11", "12", "13"], "11", true],
    [["16", "11", "12", "13"], "16", true],
    [["16"], "11", false],
    [["16"], "16", true],
    [["16", "11", "12", "13"], "Impartial Witness", false],
    [["16", "11", "12", "13"], undefined, false],
    [[], "16", false],
  ])("codes %j with role %s: permitted %s", (codes, role, permitted) => {
    expect(isPermitted(codes, role)).toBe(permitted);
  });
});

describe("specific-time ranges (h:mm, local time, start included, end excluded)", () => {
  it.each<[string, { start: string; end: string }[], Date, boolean]>([
    ["inside a morning range", [{ start: "9:00", end: "12:00" }], local(15, 10, 30), true],
    ["at the start minute", [{ start: "10:30", end: "12:00" }], local(15, 10, 30), true],
    ["at the end minute", [{ start: "9:00", end: "10:30" }], local(15, 10, 30), false],
    ["before the range", [{ start: "11:00", end: "12:00" }], local(15, 10, 30), false],
    ["after the range", [{ start: "6:00", end: "9:15" }], local(15, 10, 30), false],
    [
      "in the second of two ranges",
      [
        { start: "6:00", end: "8:00" },
        { start: "10:00", end: "11:00" },
      ],
      local(15, 10, 30),
      true,
    ],
    ["over midnight, late evening", [{ start: "22:00", end: "2:00" }], local(15, 23, 10), true],
    ["over midnight, early morning", [{ start: "22:00", end: "2:00" }], local(15, 1, 59), true],
    ["over midnight, midday", [{ start: "22:00", end: "2:00" }], local(15, 12, 0), false],
    ["with equal ends: the whole day", [{ start: "0:00", end: "0:00" }], local(15, 17, 45), true],
    ["with two-digit hours", [{ start: "09:05", end: "17:30" }], local(15, 17, 29), true],
    ["with an unreadable time", [{ start: "nine", end: "17:30" }], local(15, 12, 0), false],
    ["with no ranges", [], local(15, 12, 0), false],
  ])("%s", (_case, ranges, now, inside) => {
    expect(isWithinTimeRanges(ranges, now)).toBe(inside);
  });
});

function form(overrides: Partial<FormItem> = {}): FormItem {
  return {
    name: "HAM-D 17",
    type: "CLINRO",
    instrument_id: 1,
    instance_id: 10,
    deployed: iso(14, 8),
    expiration: null,
    completed: null,
    completedBy: null,
    permissions: ["16", "11", "12", "13"],
    url: "/studies/101/instruments/1/ham-d-17",
    ...overrides,
  };
}

describe("forms list (older architecture)", () => {
  it.each<[string, Partial<FormItem>, "todo" | "completed" | "expired" | "none"]>([
    ["an open, deployed form is to do", {}, "todo"],
    ["an open form whose expiration is still ahead is to do", { expiration: iso(16) }, "todo"],
    ["a form deployed later is not shown yet", { deployed: iso(16) }, "none"],
    ["a completed form is completed", { completed: iso(14, 9), completedBy: "Carmen Ortiz" }, "completed"],
    [
      "a completed form stays completed after its expiration",
      { completed: iso(14, 9), completedBy: "Carmen Ortiz", expiration: iso(15, 0) },
      "completed",
    ],
    ["an open form past its expiration is expired", { expiration: iso(15, 10) }, "expired"],
    ["an open form expiring exactly now is expired", { expiration: NOW.toISOString() }, "expired"],
    ["an announcement is never listed", { type: "ANNOUNCEMENT" }, "none"],
  ])("%s", (_case, overrides, where) => {
    const lists = formLists([form(overrides)], "11", NOW);
    const completedRows = lists.completed.flatMap((group) => group.rows);
    expect(lists.todo).toHaveLength(where === "todo" ? 1 : 0);
    expect(completedRows).toHaveLength(where === "completed" || where === "expired" ? 1 : 0);
    if (where === "expired")
      expect(completedRows[0]).toMatchObject({ completedAt: null, expiredAt: overrides.expiration });
    if (where === "completed")
      expect(completedRows[0]).toMatchObject({ completedBy: "Carmen Ortiz", expiredAt: null });
  });

  it("locks a to-do row when the role is not in its permission codes", () => {
    const lists = formLists(
      [form({ instance_id: 1, name: "CGI-S", permissions: ["16"] }), form({ instance_id: 2 })],
      "11",
      NOW,
    );
    expect(lists.todo.map((row) => [row.name, row.locked])).toEqual([
      ["CGI-S", true],
      ["HAM-D 17", false],
    ]);
  });
});

function instrument(overrides: Partial<InstrumentWithInstances> = {}): InstrumentWithInstances {
  return {
    instrument_id: 1,
    name: "Hamilton Depression Rating Scale",
    instrument_type: "CLINRO",
    permissions: ["16", "11", "12", "13"],
    visible_days: 1,
    metadata: { display_name: "HAM-D 17" },
    url: "/studies/102/instruments/1/ham-d-17",
    instances: [],
    ...overrides,
  };
}

type Instance = InstrumentWithInstances["instances"][number];
function instance(overrides: Partial<Instance> = {}): Instance {
  return {
    instance_id: 10,
    start_date: iso(15, 8),
    expiration: null,
    completion: null,
    who_completed: null,
    who_completed_name: null,
    ...overrides,
  };
}

describe("instances (newer architecture): the visible window is start plus visible_days", () => {
  it.each<[string, Partial<InstrumentWithInstances>, Partial<Instance>, boolean]>([
    ["started two hours ago, default 1 day", {}, {}, true],
    ["starts in an hour", {}, { start_date: iso(15, 11, 30) }, false],
    ["started exactly now", {}, { start_date: NOW.toISOString() }, true],
    ["started 23 h 59 min ago, 1 day", {}, { start_date: iso(14, 10, 31) }, true],
    ["started exactly 1 day ago: the window has passed", {}, { start_date: iso(14, 10, 30) }, false],
    ["started 3 days ago with visible_days 7", { visible_days: 7 }, { start_date: iso(12, 9) }, true],
    ["started 8 days ago with visible_days 7", { visible_days: 7 }, { start_date: iso(7, 9) }, false],
    [
      "started 30 days ago, persistent scheme: always shown",
      { metadata: { display_name: "AE", schedule: { recurring: { scheme: "persistent" } } } },
      { start_date: iso(1, 9) },
      true,
    ],
    [
      "persistent, but not started yet",
      { metadata: { display_name: "AE", schedule: { recurring: { scheme: "persistent" } } } },
      { start_date: iso(16, 9) },
      false,
    ],
    [
      "another scheme does not extend the window",
      { metadata: { display_name: "W", schedule: { recurring: { scheme: "weekly" } } } },
      { start_date: iso(12, 9) },
      false,
    ],
    [
      "specific time, inside its range",
      { metadata: { visibility: "specific_time", visibilityRanges: [{ start: "9:00", end: "12:00" }] } },
      {},
      true,
    ],
    [
      "specific time, outside its range",
      { metadata: { visibility: "specific_time", visibilityRanges: [{ start: "18:00", end: "21:00" }] } },
      {},
      false,
    ],
    ["an announcement", { instrument_type: "ANNOUNCEMENT" }, {}, false],
    ["an open instance whose expiration is ahead", {}, { expiration: iso(15, 20) }, true],
  ])("%s: to do %s", (_case, instrumentFields, instanceFields, todo) => {
    const lists = instanceLists(
      [instrument({ ...instrumentFields, instances: [instance(instanceFields)] })],
      "11",
      NOW,
    );
    expect(lists.todo).toHaveLength(todo ? 1 : 0);
  });

  it("lists completed instances with their completer, and expired ones with the marker, never as to do", () => {
    const lists = instanceLists(
      [
        instrument({
          instances: [
            instance({
              instance_id: 1,
              start_date: iso(1),
              completion: iso(1, 9, 5),
              who_completed: 3,
              who_completed_name: "Carmen Ortiz",
            }),
            instance({ instance_id: 2, start_date: iso(8), expiration: iso(9) }),
            instance({ instance_id: 3, start_date: iso(15, 9) }),
          ],
        }),
      ],
      "11",
      NOW,
    );
    expect(lists.todo.map((row) => row.instanceId)).toEqual([3]);
    expect(lists.completed).toEqual([
      {
        day: "2026-03-09",
        rows: [
          expect.objectContaining({ instanceId: 2, completedAt: null, completedBy: null, expiredAt: iso(9) }),
        ],
      },
      {
        day: "2026-03-01",
        rows: [
          expect.objectContaining({
            instanceId: 1,
            completedAt: iso(1, 9, 5),
            completedBy: "Carmen Ortiz",
            expiredAt: null,
          }),
        ],
      },
    ]);
  });

  it("groups completed rows by local day, newest day and newest row first", () => {
    const lists = instanceLists(
      [
        instrument({
          instrument_id: 1,
          metadata: { display_name: "HAM-D 17" },
          instances: [
            instance({ instance_id: 1, completion: iso(10, 9), who_completed_name: "A" }),
            instance({ instance_id: 2, completion: iso(12, 8), who_completed_name: "B" }),
          ],
        }),
        instrument({
          instrument_id: 2,
          metadata: { display_name: "CGI-S" },
          instances: [instance({ instance_id: 3, completion: iso(10, 16), who_completed_name: "C" })],
        }),
      ],
      "16",
      NOW,
    );
    expect(lists.completed.map((group) => [group.day, group.rows.map((row) => row.name)])).toEqual([
      ["2026-03-12", ["HAM-D 17"]],
      ["2026-03-10", ["CGI-S", "HAM-D 17"]],
    ]);
  });

  it("names rows by display_name, falling back to the instrument name, and sorts the to-do list by name", () => {
    const lists = instanceLists(
      [
        instrument({
          instrument_id: 1,
          metadata: { display_name: "Zeta scale" },
          instances: [instance({ instance_id: 1 })],
        }),
        instrument({
          instrument_id: 2,
          name: "Alpha scale",
          metadata: {},
          instances: [instance({ instance_id: 2 })],
        }),
      ],
      "11",
      NOW,
    );
    expect(lists.todo.map((row) => row.name)).toEqual(["Alpha scale", "Zeta scale"]);
  });

  it("locks rows whose permission codes leave out the user's role", () => {
    const lists = instanceLists([instrument({ permissions: ["16"], instances: [instance()] })], "11", NOW);
    expect(lists.todo[0]).toMatchObject({ locked: true });
    expect(
      instanceLists([instrument({ permissions: ["16"], instances: [instance()] })], "16", NOW).todo[0],
    ).toMatchObject({
      locked: false,
    });
  });
});

describe("events of the newer architecture's to-do rows", () => {
  const row = (overrides: Partial<TodoRow> = {}): TodoRow => ({
    key: "1-10",
    instrumentId: 1,
    instanceId: 10,
    name: "HAM-D 17",
    url: "/x",
    permissions: ["16"],
    locked: false,
    insideSpecificTime: false,
    ...overrides,
  });
  const context = { studyId: 102, participantId: 7 };

  it("sends delivered for each row, with the instrument, instance, study and participant", () => {
    expect(todoEvents([row()], context, NOW)).toEqual([
      {
        key: "delivered:1-10",
        record: {
          type: "delivered",
          timestamp: NOW.toISOString(),
          info: { instrument_id: 1, instance_id: 10, study_id: 102 },
          study_id: 102,
          participant: 7,
        },
      },
    ]);
  });

  it("adds visible for a row shown inside its specific-time window", () => {
    const events = todoEvents(
      [row({ insideSpecificTime: true }), row({ key: "2-20", instanceId: 20 })],
      context,
      NOW,
    );
    expect(events.map((event) => event.key)).toEqual(["delivered:1-10", "visible:1-10", "delivered:2-20"]);
  });

  it("builds the read event of an opened instrument", () => {
    expect(readEvent(row(), context, NOW)).toMatchObject({
      type: "read",
      info: { instance_id: 10 },
      participant: 7,
    });
  });
});

describe("rows whose submission waits in the outbox", () => {
  const row = (instrumentId: number, instanceId: number) => ({
    key: `${instrumentId}-${instanceId}`,
    instrumentId,
    instanceId,
    name: `Form ${instrumentId}`,
    url: "",
    permissions: [],
    locked: false,
    insideSpecificTime: false,
  });
  const rows = [row(1, 10), row(1, 11), row(2, 20)];
  const submission = (participantId: number, instrument: { id: number; instanceId?: number }) => ({
    kind: "submission" as const,
    participantId,
    instrument,
  });

  it("marks the delivery a queued submission completes, for its participant only", () => {
    expect([...queuedRowKeys(rows, [submission(5, { id: 1, instanceId: 11 })], 5)]).toEqual(["1-11"]);
    expect(queuedRowKeys(rows, [submission(6, { id: 1, instanceId: 11 })], 5).size).toBe(0);
  });

  it("a submission without a delivery holds every row of its instrument; uploads and events hold none", () => {
    expect([...queuedRowKeys(rows, [submission(5, { id: 1 })], 5)]).toEqual(["1-10", "1-11"]);
    expect(
      queuedRowKeys(
        rows,
        [{ kind: "upload" as const, participantId: 5, instrument: { id: 2, instanceId: 20 } }],
        5,
      ).size,
    ).toBe(0);
  });
});

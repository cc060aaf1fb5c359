import { describe, expect, it } from "vitest";
import {
  describeVisitTime,
  groupVisits,
  visitAction,
  visitMailto,
  type GroupableVisit,
  type VisitSectionKey,
} from "./visit-groups.ts";

let nextId = 1;
function visit(visit_time: string, extra: Partial<GroupableVisit> = {}): GroupableVisit {
  return { id: nextId++, is_adhoc: false, visit_time, visit_duration: 30, token: "t", ...extra };
}

/** Section key → the visit_time of each visit in it. */
function sectionsOf(visits: GroupableVisit[], now: string, timeZone: string) {
  const result: Partial<Record<VisitSectionKey, string[]>> = {};
  for (const section of groupVisits(visits, new Date(now), timeZone)) {
    if (section.visits.length) result[section.key] = section.visits.map((v) => v.visit_time);
  }
  return result;
}

type GroupCase = {
  name: string;
  now: string;
  timeZone: string;
  visits: string[];
  expected: Partial<Record<VisitSectionKey, string[]>>;
};

// 2026-11-18 is a Wednesday; 2026-11-22 a Sunday; 2026-11-23 a Monday.
const groupCases: GroupCase[] = [
  {
    name: "the soonest visit is Next and is not repeated under Today",
    now: "2026-11-18T09:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T15:00:00Z", "2026-11-18T10:00:00Z", "2026-11-18T12:00:00Z"],
    expected: { next: ["2026-11-18T10:00:00Z"], today: ["2026-11-18T12:00:00Z", "2026-11-18T15:00:00Z"] },
  },
  {
    name: "a visit under way is Next (it has not ended)",
    now: "2026-11-18T10:20:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T10:00:00Z", "2026-11-18T11:00:00Z"],
    expected: { next: ["2026-11-18T10:00:00Z"], today: ["2026-11-18T11:00:00Z"] },
  },
  {
    name: "an ended visit is left out, even when the server still listed it",
    now: "2026-11-18T10:30:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T10:00:00Z", "2026-11-18T11:00:00Z"],
    expected: { next: ["2026-11-18T11:00:00Z"] },
  },
  {
    name: "one minute before midnight, a visit just after midnight is later this week",
    now: "2026-11-18T23:59:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T23:59:30Z", "2026-11-19T00:00:00Z"],
    expected: { next: ["2026-11-18T23:59:30Z"], laterThisWeek: ["2026-11-19T00:00:00Z"] },
  },
  {
    name: "at midnight, a visit at 00:00 of that day is today",
    now: "2026-11-19T00:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-19T00:00:00Z", "2026-11-19T23:59:00Z", "2026-11-20T00:00:00Z"],
    expected: {
      next: ["2026-11-19T00:00:00Z"],
      today: ["2026-11-19T23:59:00Z"],
      laterThisWeek: ["2026-11-20T00:00:00Z"],
    },
  },
  {
    name: "the week ends on Sunday: Sunday is later this week, Monday is future",
    now: "2026-11-18T09:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T10:00:00Z", "2026-11-22T23:00:00Z", "2026-11-23T00:00:00Z"],
    expected: {
      next: ["2026-11-18T10:00:00Z"],
      laterThisWeek: ["2026-11-22T23:00:00Z"],
      future: ["2026-11-23T00:00:00Z"],
    },
  },
  {
    name: "on Sunday nothing is later this week: Monday is already next week",
    now: "2026-11-22T09:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-22T10:00:00Z", "2026-11-22T11:00:00Z", "2026-11-23T08:00:00Z"],
    expected: {
      next: ["2026-11-22T10:00:00Z"],
      today: ["2026-11-22T11:00:00Z"],
      future: ["2026-11-23T08:00:00Z"],
    },
  },
  {
    name: "on Monday the whole week to Sunday is later this week",
    now: "2026-11-23T06:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-23T07:00:00Z", "2026-11-29T22:00:00Z", "2026-11-30T08:00:00Z"],
    expected: {
      next: ["2026-11-23T07:00:00Z"],
      laterThisWeek: ["2026-11-29T22:00:00Z"],
      future: ["2026-11-30T08:00:00Z"],
    },
  },
  {
    name: "days are the device's time zone: 03:00Z Thursday is still Wednesday in New York",
    now: "2026-11-18T20:00:00Z",
    timeZone: "America/New_York",
    visits: ["2026-11-18T21:00:00Z", "2026-11-19T03:00:00Z", "2026-11-19T06:00:00Z"],
    expected: {
      next: ["2026-11-18T21:00:00Z"],
      today: ["2026-11-19T03:00:00Z"],
      laterThisWeek: ["2026-11-19T06:00:00Z"],
    },
  },
  {
    name: "the same instants in Tokyo: Thursday has begun, so they are today",
    now: "2026-11-18T20:00:00Z",
    timeZone: "Asia/Tokyo",
    visits: ["2026-11-18T21:00:00Z", "2026-11-19T03:00:00Z", "2026-11-19T16:00:00Z"],
    expected: {
      next: ["2026-11-18T21:00:00Z"],
      today: ["2026-11-19T03:00:00Z"],
      laterThisWeek: ["2026-11-19T16:00:00Z"],
    },
  },
  {
    name: "the week boundary follows the time zone: Sunday 20:00 in New York is Monday in UTC",
    now: "2026-11-22T15:00:00Z",
    timeZone: "America/New_York",
    visits: ["2026-11-22T16:00:00Z", "2026-11-23T01:00:00Z", "2026-11-23T05:00:00Z"],
    expected: {
      next: ["2026-11-22T16:00:00Z"],
      today: ["2026-11-23T01:00:00Z"],
      future: ["2026-11-23T05:00:00Z"],
    },
  },
  {
    name: "offsets in visit_time are instants: +02:00 and Z compare by the moment",
    now: "2026-11-18T09:00:00Z",
    timeZone: "UTC",
    visits: ["2026-11-18T13:00:00+02:00", "2026-11-18T10:30:00Z"],
    expected: { next: ["2026-11-18T10:30:00Z"], today: ["2026-11-18T13:00:00+02:00"] },
  },
];

describe("groupVisits", () => {
  it.each(groupCases)("$name", ({ now, timeZone, visits, expected }) => {
    expect(
      sectionsOf(
        visits.map((time) => visit(time)),
        now,
        timeZone,
      ),
    ).toEqual(expected);
  });

  it("keeps the four sections in the spec's order, empty ones included", () => {
    const sections = groupVisits([], new Date("2026-11-18T09:00:00Z"), "UTC");
    expect(sections.map((section) => section.key)).toEqual(["next", "today", "laterThisWeek", "future"]);
    expect(sections.every((section) => section.visits.length === 0)).toBe(true);
  });

  it("never drops an ad hoc visit, and one created earlier is Next", () => {
    const adhoc = visit("2026-11-17T08:00:00Z", { is_adhoc: true, token: null });
    const later = visit("2026-11-18T10:00:00Z");
    const sections = groupVisits([later, adhoc], new Date("2026-11-18T09:00:00Z"), "UTC");
    expect(sections[0]?.visits).toEqual([adhoc]);
    expect(sections[1]?.visits).toEqual([later]);
  });

  it("orders visits at the same moment by id", () => {
    const first = visit("2026-11-18T10:00:00Z");
    const second = visit("2026-11-18T10:00:00Z");
    const sections = groupVisits([second, first], new Date("2026-11-18T09:00:00Z"), "UTC");
    expect(sections[0]?.visits).toEqual([first]);
    expect(sections[1]?.visits).toEqual([second]);
  });
});

type TimeCase = {
  name: string;
  now: string;
  timeZone: string;
  visitTime: string;
  duration: number;
  expected: ReturnType<typeof describeVisitTime>;
};

const timeCases: TimeCase[] = [
  {
    name: "today's visit reads Today with start to start plus duration",
    now: "2026-11-18T08:00:00Z",
    timeZone: "UTC",
    visitTime: "2026-11-18T09:15:00Z",
    duration: 45,
    expected: { isToday: true, date: "18-Nov-2026", start: "09:15", end: "10:00" },
  },
  {
    name: "another day reads DD-MMM-YYYY",
    now: "2026-11-18T08:00:00Z",
    timeZone: "UTC",
    visitTime: "2026-12-03T14:00:00Z",
    duration: 30,
    expected: { isToday: false, date: "03-Dec-2026", start: "14:00", end: "14:30" },
  },
  {
    name: "a visit across midnight ends on the next day's clock",
    now: "2026-11-18T08:00:00Z",
    timeZone: "UTC",
    visitTime: "2026-11-18T23:40:00Z",
    duration: 30,
    expected: { isToday: true, date: "18-Nov-2026", start: "23:40", end: "00:10" },
  },
  {
    name: "times and the day are those of the device's time zone",
    now: "2026-11-18T20:00:00Z",
    timeZone: "America/New_York",
    visitTime: "2026-11-19T03:00:00Z",
    duration: 60,
    expected: { isToday: true, date: "18-Nov-2026", start: "22:00", end: "23:00" },
  },
  {
    name: "in Tokyo the same visit is on the 19th",
    now: "2026-11-18T12:00:00Z",
    timeZone: "Asia/Tokyo",
    visitTime: "2026-11-19T03:00:00Z",
    duration: 60,
    expected: { isToday: false, date: "19-Nov-2026", start: "12:00", end: "13:00" },
  },
];

describe("describeVisitTime", () => {
  it.each(timeCases)("$name", ({ now, timeZone, visitTime, duration, expected }) => {
    expect(
      describeVisitTime({ visit_time: visitTime, visit_duration: duration }, new Date(now), timeZone),
    ).toEqual(expected);
  });
});

describe("visitAction", () => {
  it.each([
    { is_adhoc: false, token: "abc", expected: "room" },
    { is_adhoc: true, token: null, expected: "room" },
    { is_adhoc: true, token: "abc", expected: "room" },
    { is_adhoc: false, token: null, expected: "mail" },
    { is_adhoc: false, token: "", expected: "mail" },
  ] as const)("is_adhoc $is_adhoc with token $token → $expected", ({ expected, ...fields }) => {
    expect(visitAction(fields)).toBe(expected);
  });
});

describe("visitMailto", () => {
  it("addresses the participant's email with the subject and body filled in", () => {
    const link = visitMailto("ana.lopez@example.org", {
      subject: "Virtual visit on 18-Nov-2026",
      body: "Dear Ana López,\nplease reply & confirm.",
    });
    expect(link).toBe(
      "mailto:ana.lopez@example.org?subject=Virtual%20visit%20on%2018-Nov-2026" +
        "&body=Dear%20Ana%20L%C3%B3pez%2C%0Aplease%20reply%20%26%20confirm.",
    );
    const url = new URL(link);
    expect(url.protocol).toBe("mailto:");
    expect(url.pathname).toBe("ana.lopez@example.org");
    expect(url.searchParams.get("body")).toBe("Dear Ana López,\nplease reply & confirm.");
  });

  it("encodes characters of the address that would end it or start the query", () => {
    const link = visitMailto(" first+tag?x@example.org ", { subject: "s", body: "b" });
    expect(link.startsWith("mailto:first%2Btag%3Fx@example.org?subject=s&body=b")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { initialVisitForm, readVisitForm, visitMoment } from "./schedule-visit-form.ts";

const now = new Date(2026, 10, 27, 10, 20);

describe("the schedule-visit form", () => {
  it("starts today at the next full hour, for 30 minutes, not recorded", () => {
    expect(initialVisitForm(now)).toEqual({
      date: "2026-11-27",
      time: "11:00",
      duration: "30",
      recorded: false,
    });
    // Late in the evening the next full hour is tomorrow's.
    expect(initialVisitForm(new Date(2026, 10, 27, 23, 30))).toMatchObject({
      date: "2026-11-28",
      time: "00:00",
    });
  });

  it("reads a visit as the local moment, its minutes and whether it is recorded", () => {
    const read = readVisitForm({ date: "2026-11-28", time: "09:30", duration: "45", recorded: true }, now);
    expect(read).toEqual({
      ok: true,
      start: new Date(2026, 10, 28, 9, 30),
      body: {
        visit_time: new Date(2026, 10, 28, 9, 30).toISOString(),
        visit_duration: 45,
        is_recorded: true,
        is_adhoc: false,
      },
    });
  });

  it("names each field that is wrong", () => {
    expect(readVisitForm({ date: "", time: "", duration: "0", recorded: false }, now)).toEqual({
      ok: false,
      errors: { date: "date_missing", time: "time_missing", duration: "duration_invalid" },
    });
    expect(
      readVisitForm({ date: "2026-02-30", time: "09:00", duration: "30", recorded: false }, now),
    ).toEqual({
      ok: false,
      errors: { date: "date_missing" },
    });
    for (const duration of ["481", "1.5", "abc", ""]) {
      expect(readVisitForm({ date: "2026-11-28", time: "09:00", duration, recorded: false }, now)).toEqual({
        ok: false,
        errors: { duration: "duration_invalid" },
      });
    }
  });

  it("refuses a visit that would already have ended, and takes one still going on", () => {
    expect(
      readVisitForm({ date: "2026-11-27", time: "09:00", duration: "30", recorded: false }, now),
    ).toEqual({
      ok: false,
      errors: { time: "already_ended" },
    });
    expect(
      readVisitForm({ date: "2026-11-27", time: "10:00", duration: "30", recorded: false }, now).ok,
    ).toBe(true);
  });

  it("reads no moment from a date or time that is not one", () => {
    expect(visitMoment("2026-13-01", "10:00")).toBeNull();
    expect(visitMoment("2026-11-27", "1000")).toBeNull();
    expect(visitMoment("2026-11-27", "10:00")).toEqual(new Date(2026, 10, 27, 10, 0));
  });
});

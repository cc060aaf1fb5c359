import { describe, expect, it } from "vitest";
import type { ParticipantResponse } from "../../../core/contracts/participant.ts";
import { ageInYears, daysSince, summarizeParticipant } from "./participant-summary.ts";

const NOW = new Date(2026, 2, 15, 10, 30);

describe("age: completed years from the date of birth", () => {
  it.each<[string | null, number | null]>([
    ["1980-03-15", 46],
    ["1980-03-14", 46],
    ["1980-03-16", 45],
    ["2000-02-29", 26],
    ["2026-03-15", 0],
    ["2027-01-01", null],
    [null, null],
    ["not a date", null],
  ])("born %s: %s", (dateOfBirth, age) => {
    expect(ageInYears(dateOfBirth, NOW)).toBe(age);
  });
});

describe("days since the first sign-in, on the local calendar", () => {
  it.each<[string | null, number | null]>([
    [new Date(2026, 2, 15, 9, 0).toISOString(), 0],
    [new Date(2026, 2, 14, 23, 59).toISOString(), 1],
    [new Date(2026, 2, 1, 12, 0).toISOString(), 14],
    [new Date(2025, 2, 15, 12, 0).toISOString(), 365],
    [new Date(2026, 2, 16, 12, 0).toISOString(), 0],
    [null, null],
  ])("first sign-in %s: %s days", (timestamp, days) => {
    expect(daysSince(timestamp, NOW)).toBe(days);
  });
});

describe("summary block", () => {
  const participant: ParticipantResponse = {
    id: 42,
    fname: "Amelia",
    lname: "Anderson",
    gender: "f",
    date_of_birth: "1980-04-02",
    first_login_timestamp: new Date(2026, 2, 5, 9).toISOString(),
    last_updated: new Date(2026, 2, 4, 10, 20).toISOString(),
    num_completed_instruments: 0,
    num_total_instruments: 0,
    study_name: "MDD-301",
    subject_id: "MDD-0042",
    email: null,
  };

  it("shows the dates as DD-MMM-YYYY and derives age and days since first sign-in", () => {
    expect(summarizeParticipant(participant, NOW)).toEqual({
      name: "Amelia Anderson",
      id: 42,
      subjectId: "MDD-0042",
      gender: "f",
      dateOfBirth: "02-Apr-1980",
      age: 45,
      lastUpdated: "04-Mar-2026",
      daysSinceFirstLogin: 10,
    });
  });

  it("leaves unknown values empty", () => {
    expect(
      summarizeParticipant(
        { ...participant, date_of_birth: null, first_login_timestamp: null, subject_id: "", gender: null },
        NOW,
      ),
    ).toMatchObject({ dateOfBirth: null, age: null, daysSinceFirstLogin: null, subjectId: "", gender: null });
  });
});

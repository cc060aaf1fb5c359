import { describe, expect, it } from "vitest";
import {
  choiceEntry,
  dateAnswerValue,
  dateInputValue,
  datetimeAnswerValue,
  datetimeInputValues,
  decimalAnswerValue,
  entryChoiceId,
  formatUtcOffset,
  fromTwelveHour,
  integerAnswerValue,
  matrixAnswerWidthPercent,
  numberRangeProblem,
  orderedChoices,
  orderedSubQuestions,
  photoFileName,
  timeAnswerValue,
  timeInputValue,
  toTwelveHour,
} from "./answer-values.ts";
import type { Question } from "../contracts/survey-definition.ts";

const question = {
  id: "q1",
  label: "How are you?",
  type: "select_one",
  attributes: { required: true },
  choices: {
    good: { label: "Good", score_value: 2 },
    bad: { label: "Bad", score_value: 0 },
    none: { label: "No score" },
  },
  choices_order: ["bad", "good", "none"],
} satisfies Question;

describe("dates", () => {
  it("stores a date as midnight Z", () => {
    expect(dateAnswerValue("2026-11-22")).toBe("2026-11-22T00:00:00.000Z");
  });

  it.each(["", "2026-02-30", "22/11/2026", "2026-13-01"])("rejects %j", (text) => {
    expect(dateAnswerValue(text)).toBeNull();
  });

  it("reads a stored date back for the date input", () => {
    expect(dateInputValue("2026-11-22T00:00:00.000Z")).toBe("2026-11-22");
    expect(dateInputValue(undefined)).toBe("");
    expect(dateInputValue("not a date")).toBe("");
  });
});

describe("times", () => {
  const now = new Date(2026, 10, 22, 9, 5, 42);

  it("stores a time as today's local date with seconds zero and the local offset", () => {
    const value = timeAnswerValue("14:30", now);
    expect(value).toMatch(/^2026-11-22T14:30:00[+-]\d{2}:\d{2}$/);
    const instant = new Date(value ?? "");
    expect(instant.getHours()).toBe(14);
    expect(instant.getMinutes()).toBe(30);
    expect(instant.getSeconds()).toBe(0);
  });

  it.each(["", "24:00", "14:60", "2:30", "14:30:15"])("rejects %j", (text) => {
    expect(timeAnswerValue(text, now)).toBeNull();
  });

  it.each([
    [-60, "+01:00"],
    [0, "+00:00"],
    [300, "-05:00"],
    [-330, "+05:30"],
    [210, "-03:30"],
  ])("writes a timezone offset of %i minutes as %s", (offset, text) => {
    expect(formatUtcOffset(offset)).toBe(text);
  });

  it("reads back the wall-clock time a time was recorded with", () => {
    expect(timeInputValue("2026-11-22T14:30:00+01:00")).toBe("14:30");
    expect(timeInputValue("2026-11-22T07:05:00-05:00")).toBe("07:05");
    expect(timeInputValue(null)).toBe("");
  });

  it.each([
    ["00:15", { hour: "12", minute: "15", period: "AM" }],
    ["09:05", { hour: "09", minute: "05", period: "AM" }],
    ["12:00", { hour: "12", minute: "00", period: "PM" }],
    ["23:59", { hour: "11", minute: "59", period: "PM" }],
  ] as const)("shows %s on a 12 hour clock and back", (time, parts) => {
    expect(toTwelveHour(time)).toEqual(parts);
    expect(fromTwelveHour(parts)).toBe(time);
  });

  it("needs every 12 hour part", () => {
    expect(fromTwelveHour({ hour: "02", minute: "30" })).toBeNull();
    expect(fromTwelveHour({ hour: "", minute: "30", period: "PM" })).toBeNull();
    expect(fromTwelveHour({ hour: "13", minute: "30", period: "PM" })).toBeNull();
  });
});

describe("datetimes", () => {
  it("stores the local date and time as an ISO string with seconds zero", () => {
    const value = datetimeAnswerValue("2026-11-22", "14:30");
    expect(value).toBe(new Date(2026, 10, 22, 14, 30, 0, 0).toISOString());
    expect(value).toMatch(/:00\.000Z$/);
  });

  it.each([
    ["2026-11-22", ""],
    ["", "14:30"],
    ["", ""],
  ])("needs both parts (%j, %j)", (date, time) => {
    expect(datetimeAnswerValue(date, time)).toBeNull();
  });

  it("reads a stored datetime back as local inputs", () => {
    const value = new Date(2026, 10, 22, 8, 5).toISOString();
    expect(datetimeInputValues(value)).toEqual({ date: "2026-11-22", time: "08:05" });
    expect(datetimeInputValues("")).toEqual({ date: "", time: "" });
  });
});

describe("numbers", () => {
  it.each([
    ["3", 3],
    ["2.5", 3],
    ["2.4", 2],
    ["-0.4", 0],
    [" 7 ", 7],
    ["1,6", 2],
    ["", null],
    ["abc", null],
  ])("rounds the integer text %j to %j", (text, value) => {
    expect(integerAnswerValue(text)).toBe(value);
  });

  it.each([
    ["1.25", 1.3],
    ["0.15", 0.2],
    ["1.04", 1],
    ["-2.36", -2.4],
    ["3,14", 3.1],
    ["0", 0],
    ["", null],
    ["-", null],
  ])("rounds the decimal text %j to %j", (text, value) => {
    expect(decimalAnswerValue(text)).toBe(value);
  });

  it("checks the inclusive bounds", () => {
    expect(numberRangeProblem(0, { min: 0, max: 10 })).toBeNull();
    expect(numberRangeProblem(10, { min: 0, max: 10 })).toBeNull();
    expect(numberRangeProblem(-1, { min: 0 })).toBe("below_min");
    expect(numberRangeProblem(11, { max: 10 })).toBe("above_max");
    expect(numberRangeProblem(1e9, {})).toBeNull();
  });
});

describe("matrix answer widths", () => {
  it.each([
    [2, 30],
    [3, 50],
    [4, 60],
    [5, 70],
    [6, 70],
    [7, 80],
    [1, 30],
    [9, 80],
  ])("gives %i choices %i %%", (count, width) => {
    expect(matrixAnswerWidthPercent(count)).toBe(width);
  });
});

describe("photo file names", () => {
  const context = { studyId: 12, participantId: 345, instrumentId: 6 };

  it("joins study, participant, instrument, question and stamp", () => {
    expect(photoFileName(context, "wound_photo", "0b7c6f2e-1d2a-4a8e-9c4b-6f0e2d9a1b3c")).toBe(
      "12_345_6_wound_photo_0b7c6f2e-1d2a-4a8e-9c4b-6f0e2d9a1b3c.jpeg",
    );
  });

  it("replaces characters an upload file name may not hold", () => {
    expect(photoFileName(context, "arm/left photo", "s")).toBe("12_345_6_arm-left-photo_s.jpeg");
  });
});

describe("choices", () => {
  it("builds the entry of a chosen choice with its score", () => {
    expect(choiceEntry(question, "good")).toEqual({
      label: "Good",
      value: "good",
      choice_id: "good",
      score_value: 2,
    });
    expect(choiceEntry(question, "none")).toEqual({ label: "No score", value: "none", choice_id: "none" });
    expect(choiceEntry(question, "missing")).toBeNull();
  });

  it("keeps choices_order", () => {
    expect(orderedChoices(question).map(({ id }) => id)).toEqual(["bad", "good", "none"]);
    expect(orderedChoices({ choices: question.choices }).map(({ id }) => id)).toEqual([
      "good",
      "bad",
      "none",
    ]);
  });

  it("keeps questions_order and skips unknown ids", () => {
    const matrix = {
      questions: {
        r1: { id: "r1", label: "Row 1", attributes: { required: false } },
        r2: { id: "r2", label: "Row 2", attributes: { required: false } },
      },
      questions_order: ["r2", "gone", "r1"],
    };
    expect(orderedSubQuestions(matrix).map(({ id }) => id)).toEqual(["r2", "r1"]);
  });

  it("reads the choice an entry names", () => {
    expect(entryChoiceId({ label: "Good", value: "good", choice_id: "good" })).toBe("good");
    expect(entryChoiceId({ label: "Good", value: "good" })).toBe("good");
    expect(entryChoiceId({ label: "3", value: 3 })).toBeUndefined();
    expect(entryChoiceId(undefined)).toBeUndefined();
  });
});

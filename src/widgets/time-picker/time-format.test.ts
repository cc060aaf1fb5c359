import { describe, expect, it } from "vitest";
import { formatTime, localeTimeFormat, parseTime } from "./time-format.ts";

describe("time picker formats", () => {
  it.each([
    { time: { hours: 0, minutes: 5 }, h24: "00:05", h12: "12:05 AM" },
    { time: { hours: 9, minutes: 30 }, h24: "09:30", h12: "09:30 AM" },
    { time: { hours: 12, minutes: 0 }, h24: "12:00", h12: "12:00 PM" },
    { time: { hours: 23, minutes: 59 }, h24: "23:59", h12: "11:59 PM" },
  ])("writes $h24 in 24 h (HH:mm) and $h12 in 12 h (hh:mm A)", ({ time, h24, h12 }) => {
    expect(formatTime(time, "24h")).toBe(h24);
    expect(formatTime(time, "12h")).toBe(h12);
    expect(parseTime(h24, "24h")).toEqual(time);
    expect(parseTime(h12, "12h")).toEqual(time);
  });

  it("refuses seconds in both formats", () => {
    expect(parseTime("10:30:15", "24h")).toBeNull();
    expect(parseTime("10:30:15 AM", "12h")).toBeNull();
  });

  it.each(["24:00", "12:60", "9", "ab:cd", "10:30 PM"])("refuses %s in 24 h", (text) => {
    expect(parseTime(text, "24h")).toBeNull();
  });

  it.each(["13:00 PM", "00:10 AM", "10:30", "10:75 AM"])("refuses %s in 12 h", (text) => {
    expect(parseTime(text, "12h")).toBeNull();
  });

  it("accepts a lower-case half of day and no space in 12 h", () => {
    expect(parseTime("7:05pm", "12h")).toEqual({ hours: 19, minutes: 5 });
  });

  it("picks 12 h for en-US and 24 h for es", () => {
    expect(localeTimeFormat("en-US")).toBe("12h");
    expect(localeTimeFormat("es")).toBe("24h");
  });
});

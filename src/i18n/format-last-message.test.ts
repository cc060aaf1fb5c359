import dayjs from "dayjs";
import "dayjs/locale/es";
import { afterEach, describe, expect, it } from "vitest";
import { formatLastMessageDate, lastMessageDateKind } from "./format-last-message.ts";

afterEach(() => {
  dayjs.locale("en");
});

/** Wednesday 18 November 2026, 10:30 local time. */
const NOW = new Date(2026, 10, 18, 10, 30);

describe("the last-message date style (spec 01 section 9), with a fixed clock", () => {
  it.each([
    ["earlier today", "time", new Date(2026, 10, 18, 0, 5)],
    ["a moment ago", "time", new Date(2026, 10, 18, 10, 29)],
    ["late yesterday", "yesterday", new Date(2026, 10, 17, 23, 59)],
    ["just after midnight yesterday", "yesterday", new Date(2026, 10, 17, 0, 0)],
    ["two days ago", "weekday", new Date(2026, 10, 16, 12, 0)],
    ["six days ago", "weekday", new Date(2026, 10, 12, 9, 0)],
    ["seven days ago", "monthDay", new Date(2026, 10, 11, 9, 0)],
    ["this January", "monthDay", new Date(2026, 0, 2, 9, 0)],
    ["last December", "fullDate", new Date(2025, 11, 31, 23, 0)],
    ["years ago", "fullDate", new Date(2019, 5, 1)],
    ["tomorrow (a clock ahead)", "fullDate", new Date(2026, 10, 19, 8, 0)],
  ])("%s is shown as %s", (_label, kind, date) => {
    expect(lastMessageDateKind(date, NOW)).toBe(kind);
  });

  it("writes each kind in English", () => {
    expect(formatLastMessageDate(new Date(2026, 10, 18, 14, 5), new Date(2026, 10, 18, 20, 0), "en")).toBe(
      "14:05",
    );
    expect(formatLastMessageDate(new Date(2026, 10, 17, 9, 0), NOW, "en")).toBe("Yesterday");
    expect(formatLastMessageDate(new Date(2026, 10, 16, 9, 0), NOW, "en")).toBe("Monday");
    expect(formatLastMessageDate(new Date(2026, 8, 3, 9, 0), NOW, "en")).toBe("Sep 3");
    expect(formatLastMessageDate(new Date(2025, 11, 31, 9, 0), NOW, "en")).toBe("31-Dec-2025");
  });

  it("writes each kind in Spanish", () => {
    dayjs.locale("es");
    expect(formatLastMessageDate(new Date(2026, 10, 18, 14, 5), new Date(2026, 10, 18, 20, 0), "es")).toBe(
      "14:05",
    );
    expect(formatLastMessageDate(new Date(2026, 10, 17, 9, 0), NOW, "es")).toBe("Ayer");
    expect(formatLastMessageDate(new Date(2026, 10, 16, 9, 0), NOW, "es")).toBe("Lunes");
    expect(formatLastMessageDate(new Date(2026, 8, 3, 9, 0), NOW, "es")).toBe("3 sept");
    expect(formatLastMessageDate(new Date(2025, 11, 31, 9, 0), NOW, "es")).toBe("31-dic-2025");
  });
});

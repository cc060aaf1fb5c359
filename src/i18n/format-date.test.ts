import dayjs from "dayjs";
import "dayjs/locale/es";
import { afterEach, describe, expect, it } from "vitest";
import { loadDayjsLocale } from "./date-locales.ts";
import {
  LONG_DATE_FORMAT,
  SHORT_DATE_FORMAT,
  formatDateTime,
  formatLongDate,
  formatShortDate,
  formatTimeOfDay,
  setDateLocale,
} from "./format-date.ts";

afterEach(() => {
  dayjs.locale("en");
  setDateLocale("en-US");
});

async function useDateLocale(name: string, tag: string) {
  dayjs.locale((await loadDayjsLocale(name))!);
  setDateLocale(tag);
}

describe("the spec's date formats (spec 01 section 9)", () => {
  it("are DD-MMM-YYYY and DD-MMMM-YYYY", () => {
    expect(SHORT_DATE_FORMAT).toBe("DD-MMM-YYYY");
    expect(LONG_DATE_FORMAT).toBe("DD-MMMM-YYYY");
  });

  it.each([
    [new Date(2026, 10, 22), "22-Nov-2026", "22-November-2026"],
    [new Date(2026, 0, 5), "05-Jan-2026", "05-January-2026"],
    [new Date(2027, 8, 30, 23, 59), "30-Sep-2027", "30-September-2027"],
  ])("%s reads %s and %s", (date, short, long) => {
    expect(formatShortDate(date)).toBe(short);
    expect(formatLongDate(date)).toBe(long);
  });

  it("names the month in the active language", () => {
    dayjs.locale("es");
    expect(formatLongDate(new Date(2026, 10, 22))).toBe("22-noviembre-2026");
  });

  it.each([
    ["fr", "fr-FR", "03-févr.-2026", "03-février-2026"],
    ["de", "de-DE", "03-Feb.-2026", "03-Februar-2026"],
    ["pt-br", "pt-BR", "03-fev-2026", "03-fevereiro-2026"],
    ["ja", "ja-JP", "03-2月-2026", "03-2月-2026"],
  ])("follows the browser's language: %s", async (name, tag, short, long) => {
    await useDateLocale(name, tag);
    const date = new Date(2026, 1, 3, 9, 7, 5);
    expect(formatShortDate(date)).toBe(short);
    expect(formatLongDate(date)).toBe(long);
    expect(formatDateTime(date)).toBe(`${short} 09:07`);
  });
});

describe("times: one rule with the dates", () => {
  it("writes a time of day on a 24-hour clock without seconds", () => {
    expect(formatTimeOfDay(new Date(2026, 9, 27, 15, 38, 50))).toBe("15:38");
    expect(formatTimeOfDay(new Date(2026, 9, 27, 0, 5))).toBe("00:05");
  });

  it("writes a moment as DD-MMM-YYYY HH:mm, with seconds when asked", () => {
    const moment = new Date(2026, 9, 27, 15, 38, 50);
    expect(formatDateTime(moment)).toBe("27-Oct-2026 15:38");
    expect(formatDateTime(moment, { seconds: true })).toBe("27-Oct-2026 15:38:50");
  });

  it("shows a signature's wall-clock time in its zone, with the zone's name", () => {
    const instant = "2026-10-27T15:38:50.000Z";
    expect(formatDateTime(instant, { seconds: true, timeZone: "Europe/Paris" })).toBe(
      "27-Oct-2026 16:38:50 GMT+1",
    );
    expect(formatDateTime(instant, { seconds: true, timeZone: "America/New_York" })).toBe(
      "27-Oct-2026 11:38:50 EDT",
    );
  });

  it("names the zone in the browser's language", async () => {
    await useDateLocale("de", "de-DE");
    expect(formatDateTime("2026-10-27T15:38:50.000Z", { seconds: true, timeZone: "Europe/Berlin" })).toBe(
      "27-Okt.-2026 16:38:50 MEZ",
    );
  });

  it("gives back a text that is not a date", () => {
    expect(formatDateTime("not a date")).toBe("not a date");
  });
});

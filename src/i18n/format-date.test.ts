import dayjs from "dayjs";
import "dayjs/locale/es";
import { afterEach, describe, expect, it } from "vitest";
import { LONG_DATE_FORMAT, SHORT_DATE_FORMAT, formatLongDate, formatShortDate } from "./format-date.ts";

afterEach(() => {
  dayjs.locale("en");
});

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
});

import { describe, expect, it } from "vitest";
import {
  formatShortDate,
  isAllowedDateKey,
  parseShortDate,
  readDateText,
  shortDateFormat,
} from "./date-text.ts";

describe("date input: the locale's short date format", () => {
  it("reads month first in en-US and day first in en-GB and es", () => {
    expect(shortDateFormat("en-US").order).toEqual(["month", "day", "year"]);
    expect(shortDateFormat("en-GB").order).toEqual(["day", "month", "year"]);
    expect(shortDateFormat("es").order).toEqual(["day", "month", "year"]);
  });

  it.each([
    { locale: "en-US", text: "3/4/2025", expected: { year: 2025, month: 3, day: 4 } },
    { locale: "en-US", text: "12/31/25", expected: { year: 2025, month: 12, day: 31 } },
    { locale: "en-GB", text: "03/04/2025", expected: { year: 2025, month: 4, day: 3 } },
    { locale: "es", text: "31/1/25", expected: { year: 2025, month: 1, day: 31 } },
    { locale: "en-US", text: "2/29/2024", expected: { year: 2024, month: 2, day: 29 } },
  ])("parses $text in $locale", ({ locale, text, expected }) => {
    expect(parseShortDate(text, locale)).toEqual(expected);
  });

  it.each([
    { locale: "en-US", text: "31/12/2025", why: "month 31" },
    { locale: "en-GB", text: "12/31/2025", why: "month 31 (day first)" },
    { locale: "en-US", text: "2/29/2025", why: "no 29 February in 2025" },
    { locale: "en-US", text: "1/2", why: "a missing year" },
    { locale: "en-US", text: "1/2/202", why: "a three-digit year" },
    { locale: "en-US", text: "1/2/2025/3", why: "an extra field" },
    { locale: "en-US", text: "Jan 2 2025", why: "a month name" },
    { locale: "en-US", text: "001/2/2025", why: "a three-digit month" },
  ])("is invalid for $text in $locale ($why)", ({ locale, text }) => {
    expect(parseShortDate(text, locale)).toBeNull();
    expect(readDateText(text, locale)).toEqual({ kind: "invalid" });
  });

  it("accepts digits, the locale's separator and editing keys only", () => {
    for (const key of ["0", "9", "/", "Backspace", "Tab", "Enter", "ArrowLeft"]) {
      expect(isAllowedDateKey(key, "en-US")).toBe(true);
    }
    for (const key of ["a", "-", ".", " ", "e"]) expect(isAllowedDateKey(key, "en-US")).toBe(false);
    expect(isAllowedDateKey(".", "de-DE")).toBe(true);
  });

  it("tells empty, valid and disabled days apart", () => {
    const weekend = ({ year, month, day }: { year: number; month: number; day: number }) =>
      [0, 6].includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
    expect(readDateText("  ", "en-US")).toEqual({ kind: "empty" });
    expect(readDateText("3/3/2025", "en-US", weekend).kind).toBe("valid");
    expect(readDateText("3/1/2025", "en-US", weekend).kind).toBe("disabled");
  });

  it("formats back in the same format", () => {
    const value = { year: 2025, month: 1, day: 31 };
    expect(parseShortDate(formatShortDate(value, "en-US"), "en-US")).toEqual(value);
    expect(parseShortDate(formatShortDate(value, "es"), "es")).toEqual(value);
  });
});

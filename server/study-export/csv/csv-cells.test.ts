import { describe, expect, it } from "vitest";
import { csvField, csvLine, isoCell } from "./csv-cells.ts";

describe("CSV cells", () => {
  it("quotes per RFC 4180: commas, quotes and line breaks, quotes doubled, CRLF line ends", () => {
    expect(csvLine(["a", "b,c", 'say "hi"', "two\nlines", "cr\rhere"])).toBe(
      'a,"b,c","say ""hi""","two\nlines","cr\rhere"\r\n',
    );
    expect(csvLine([null, undefined, "", 0])).toBe(",,,0\r\n");
    expect(csvField(true)).toBe("1");
    expect(csvField(Number.NaN)).toBe("");
  });

  it("neutralises text a spreadsheet would run as a formula, and leaves numbers and offsets alone", () => {
    for (const formula of ["=1+1", "+SUM(A1)", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "\r=x"]) {
      expect(csvField(formula).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const value of ["-3", "-3.5", "+4", "-1e5", "-05:00", "+01:00", "3-4", "a=b"]) {
      expect(csvField(value)).toBe(value);
    }
    expect(csvField(-3)).toBe("-3");
  });

  it("writes times as ISO 8601 UTC", () => {
    expect(isoCell(new Date("2026-11-27T10:00:00+01:00"))).toBe("2026-11-27T09:00:00.000Z");
    expect(isoCell("2026-11-27T10:00:00+01:00")).toBe("2026-11-27T09:00:00.000Z");
    expect(isoCell(null)).toBe("");
  });
});

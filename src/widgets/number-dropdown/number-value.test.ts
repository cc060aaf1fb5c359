import { describe, expect, it } from "vitest";
import { parseWholeNumber } from "./number-value.ts";

describe("number-input dropdown", () => {
  it.each([
    { text: "7", value: 7 },
    { text: " 42 ", value: 42 },
    { text: "+3", value: 3 },
    { text: "0", value: 0 },
    { text: "-0", value: 0 },
  ])("reads $text as $value", ({ text, value }) => {
    expect(parseWholeNumber(text)).toBe(value);
  });

  it("clamps a negative to 0 unless negatives are allowed", () => {
    expect(parseWholeNumber("-5")).toBe(0);
    expect(parseWholeNumber("-5", true)).toBe(-5);
  });

  it.each(["", "abc", "1.5", "1e3", "12a", "99999999999999999999"])("reads no integer in '%s'", (text) => {
    expect(parseWholeNumber(text)).toBeNull();
    expect(parseWholeNumber(text, true)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { commonPasswordForms, isCommonPassword } from "./common-passwords.ts";

const list = new Set(["password", "summer", "qwerty", "abc", "dragon", "p@ssw0rd!x"]);

describe("common passwords", () => {
  it("looks up the password in lower case and its core without the digits and symbols around it", () => {
    expect(commonPasswordForms("Summer2024!")).toEqual(["summer2024!", "summer"]);
    expect(commonPasswordForms("!1Password99")).toEqual(["!1password99", "password"]);
    expect(commonPasswordForms("Pass&word1")).toEqual(["pass&word1", "pass&word"]);
    expect(commonPasswordForms("Heron7!Lantern")).toEqual(["heron7!lantern"]);
  });

  it("refuses a listed password dressed up for the five rules", () => {
    expect(isCommonPassword("Password1!", list)).toBe(true);
    expect(isCommonPassword("Summer2024!", list)).toBe(true);
    expect(isCommonPassword("2024!QWERTY", list)).toBe(true);
    expect(isCommonPassword("P@ssw0rd!X", list)).toBe(true);
  });

  it("accepts a password whose core is not listed, and ignores a core too short to mean anything", () => {
    expect(isCommonPassword("Password-ish1!", list)).toBe(false);
    expect(isCommonPassword("Heron7!Lantern", list)).toBe(false);
    // "abc" is listed but a three-letter core is not looked up.
    expect(isCommonPassword("Abc12345!", list)).toBe(false);
  });
});

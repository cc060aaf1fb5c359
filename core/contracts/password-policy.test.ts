import { describe, expect, it } from "vitest";
import {
  PASSWORD_MIN_LENGTH,
  PASSWORD_SPECIAL_CHARACTERS,
  checkPasswordRules,
  meetsPasswordPolicy,
  passwordRules,
  type PasswordRuleCode,
} from "./password-policy.ts";

const VALID = "Abcdef1!";

describe("password rules", () => {
  it("has exactly the five rules of the live checklist", () => {
    expect(passwordRules.map((rule) => rule.code)).toEqual([
      "min_length",
      "uppercase",
      "lowercase",
      "digit",
      "special",
    ]);
  });

  it("accepts a password that meets all five rules", () => {
    expect(checkPasswordRules(VALID)).toEqual({
      min_length: true,
      uppercase: true,
      lowercase: true,
      digit: true,
      special: true,
    });
    expect(meetsPasswordPolicy(VALID)).toBe(true);
  });

  it.each<[PasswordRuleCode, string, string]>([
    ["min_length", "Abcde1!", "is only 7 characters"],
    ["uppercase", "abcdef1!", "has no uppercase letter"],
    ["lowercase", "ABCDEF1!", "has no lowercase letter"],
    ["digit", "Abcdefg!", "has no digit"],
    ["special", "Abcdefg1", "has no special character"],
  ])("fails the %s rule, and only that rule, for '%s' (it %s)", (code, password) => {
    const result = checkPasswordRules(password);
    expect(result[code]).toBe(false);
    for (const [other, holds] of Object.entries(result)) {
      if (other !== code) expect(holds, other).toBe(true);
    }
    expect(meetsPasswordPolicy(password)).toBe(false);
  });

  it("rejects the empty password on every rule", () => {
    expect(Object.values(checkPasswordRules(""))).toEqual([false, false, false, false, false]);
    expect(meetsPasswordPolicy("")).toBe(false);
  });
});

describe("minimum length 8", () => {
  it("is 8", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
  });

  it.each([
    ["Ab1!xyz", 7, false],
    ["Ab1!xyzw", 8, true],
    ["Ab1!xyzwv", 9, true],
  ])("'%s' with %i characters meets the length rule: %s", (password, length, holds) => {
    expect(password).toHaveLength(length);
    expect(checkPasswordRules(password).min_length).toBe(holds);
    expect(meetsPasswordPolicy(password)).toBe(holds);
  });
});

describe("special characters ~!@#$%^&*?", () => {
  it("are exactly ~!@#$%^&*?", () => {
    expect(PASSWORD_SPECIAL_CHARACTERS).toBe("~!@#$%^&*?");
  });

  it.each([..."~!@#$%^&*?"])("'%s' counts as a special character", (special) => {
    const password = `Abcdef1${special}`;
    expect(checkPasswordRules(password).special).toBe(true);
    expect(meetsPasswordPolicy(password)).toBe(true);
  });

  it.each([..."-_.,;:+=()[]{}<>/\\|'\"`"])("'%s' does not count as a special character", (punctuation) => {
    const password = `Abcdef1${punctuation}`;
    expect(checkPasswordRules(password).special).toBe(false);
    expect(meetsPasswordPolicy(password)).toBe(false);
  });

  it("does not count a space as a special character", () => {
    expect(checkPasswordRules("Abcdef1 ").special).toBe(false);
  });
});

describe("spaces", () => {
  it.each(["Abc 1234!", " Abcdef1!", "Abcdef1! ", "Ab  cd 1 !"])(
    "are allowed: '%s' meets the policy",
    (password) => {
      expect(meetsPasswordPolicy(password)).toBe(true);
    },
  );

  it("count towards the minimum length", () => {
    expect(checkPasswordRules("Ab 1! x ").min_length).toBe(true);
    expect(meetsPasswordPolicy("Ab 1! x ")).toBe(true);
  });
});

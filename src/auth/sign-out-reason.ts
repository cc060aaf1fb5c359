/**
 * Why the session of this tab was ended by the server (a revoked token, a deactivated account),
 * kept until the sign-in page has said it: the page the user was on is gone by then, and a toast
 * of five seconds is easily missed on a tablet put down mid-visit. Kept in sessionStorage: it
 * belongs to this tab and survives the redirect (and a reload) to the sign-in page.
 */
import type { MessageDescriptor } from "@lingui/core";

const REASON_KEY = "clinro-sign-out-reason";

export function rememberSignOutReason(reason: MessageDescriptor) {
  try {
    sessionStorage.setItem(REASON_KEY, JSON.stringify({ id: reason.id, message: reason.message }));
  } catch {
    // No storage (private mode): the sign-in page shows no reason.
  }
}

export function signOutReason(): MessageDescriptor | undefined {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(REASON_KEY) ?? "null");
    if (parsed && typeof parsed === "object" && typeof (parsed as MessageDescriptor).id === "string") {
      return parsed as MessageDescriptor;
    }
  } catch {
    // Unreadable: as if none.
  }
  return undefined;
}

export function forgetSignOutReason() {
  try {
    sessionStorage.removeItem(REASON_KEY);
  } catch {
    // Nothing to forget.
  }
}

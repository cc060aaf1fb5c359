/**
 * Route guards of spec 01 section 4, as plain functions the router's beforeLoad calls.
 */
import { redirect } from "@tanstack/react-router";
import { sessionExpiredMessage } from "../api/error-messages.ts";
import { logout } from "./logout.ts";
import { getStoredUser, isTokenExpired, type StoredUser } from "./session-store.ts";
import { wasAwayTooLong } from "./session-timeout.ts";
import { currentSessionTiming, sessionTimedOutMessage } from "./session-timing-setting.ts";

export const FORCED_CHANGE_PATH = "/profile/change-password";

/** Only a path on this origin may be a redirect target; anything else reads as none. */
export function safeRedirectTarget(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  // Browsers drop tabs and newlines from URLs, so "/\t/evil" would become "//evil": refuse any
  // whitespace or control character outright.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  return value;
}

/**
 * Ends a session that has been idle longer than the limit (a reload or a new tab after being
 * away, spec 01 section 4), or whose token has expired. Answers the user still signed in.
 */
function endStaleSession(): StoredUser | null {
  const user = getStoredUser();
  if (!user) return null;
  if (wasAwayTooLong(user.last_active, Date.now(), currentSessionTiming())) {
    logout(sessionTimedOutMessage);
    return null;
  }
  if (isTokenExpired(user)) {
    logout(sessionExpiredMessage);
    return null;
  }
  return user;
}

/** Unauthenticated users go to login, remembering where they were going. */
export function requireSignedIn(location: { href: string }) {
  const user = endStaleSession();
  if (!user) {
    throw redirect({ to: "/login", search: { redirect: location.href } });
  }
  return user;
}

/** Signed-in users with a temporary password may go nowhere but the forced change. */
export function requirePermanentPassword(location: { href: string }) {
  const user = requireSignedIn(location);
  if (user.is_temporary_password) throw redirect({ to: FORCED_CHANGE_PATH });
  return user;
}

/** Signed-in users who land on login go to the redirect value, or home. */
export function redirectSignedInAwayFromLogin(redirectTarget: string | undefined) {
  const user = endStaleSession();
  if (user) {
    throw redirect({ href: safeRedirectTarget(redirectTarget) ?? "/" });
  }
}

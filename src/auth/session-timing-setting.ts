/**
 * Reads the session timing in effect: the constants, or the test-only override stored in
 * localStorage (which can only shorten them; see session-timeout.ts).
 */
import { msg } from "@lingui/core/macro";
import { SESSION_TIMING_OVERRIDE_KEY, resolveSessionTiming, type SessionTiming } from "./session-timeout.ts";

export function currentSessionTiming(): SessionTiming {
  let raw: string | null = null;
  try {
    raw = globalThis.localStorage?.getItem(SESSION_TIMING_OVERRIDE_KEY) ?? null;
  } catch {
    raw = null;
  }
  return resolveSessionTiming(raw);
}

/** Spec 01 section 4: shown when inactivity ends the session. */
export const sessionTimedOutMessage = msg({
  id: "session_timed_out",
  message: "Your session has timed out due to inactivity. Please log back in.",
});

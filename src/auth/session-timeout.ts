/**
 * Session inactivity (spec 01 sections 4 and 9) as arithmetic over the shared last_active stamp:
 * how long the user has been idle, when the idle modal shows and what it counts down, when the
 * session ends. No timers, no storage, no React: the inactivity watcher asks these functions
 * with the clock it reads.
 *
 * last_active lives in the stored user in localStorage, which every tab of the browser shares:
 * activity in any tab keeps the session of all of them alive.
 */

/** Idle time after which the session ends. */
export const SESSION_TIMEOUT_S = 600;
/** The idle modal shows this long before the timeout and counts down to it. */
export const IDLE_WARNING_S = 60;
/** The countdown ticks this often. */
export const COUNTDOWN_TICK_MS = 1000;
/** Never wait or count longer than this (it also keeps timers clear of setTimeout's 2^31 ms limit). */
export const SESSION_MAX_ALLOWED_S = 2_073_600;
/** Activity is recorded at most this often. */
export const IDLE_DEBOUNCE_MS = 250;

/**
 * A test-only setting: a JSON {timeoutS, warningS} stored under this localStorage key. It is
 * honoured in every build because it can only SHORTEN the timeout and the warning (longer values
 * are ignored), so it cannot weaken a deployment: the end-to-end tests use it to see the modal
 * and the sign-out in seconds.
 */
export const SESSION_TIMING_OVERRIDE_KEY = "clinro_session_timeout_override";

export type SessionTiming = { timeoutS: number; warningS: number };

export const DEFAULT_SESSION_TIMING: SessionTiming = {
  timeoutS: Math.min(SESSION_TIMEOUT_S, SESSION_MAX_ALLOWED_S),
  warningS: IDLE_WARNING_S,
};

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value > 0;

/** The timing in effect, given the raw override setting (null when none is stored). */
export function resolveSessionTiming(rawOverride: string | null | undefined): SessionTiming {
  if (!rawOverride) return DEFAULT_SESSION_TIMING;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawOverride);
  } catch {
    return DEFAULT_SESSION_TIMING;
  }
  if (!parsed || typeof parsed !== "object") return DEFAULT_SESSION_TIMING;
  const { timeoutS, warningS } = parsed as Partial<Record<keyof SessionTiming, unknown>>;
  const timeout =
    isPositiveInteger(timeoutS) && timeoutS < DEFAULT_SESSION_TIMING.timeoutS
      ? timeoutS
      : DEFAULT_SESSION_TIMING.timeoutS;
  const warning = isPositiveInteger(warningS) ? Math.min(warningS, IDLE_WARNING_S) : IDLE_WARNING_S;
  return { timeoutS: timeout, warningS: Math.min(warning, timeout) };
}

export type InactivityState =
  /** Nothing to show; look again in nextCheckMs. */
  | { phase: "active"; nextCheckMs: number }
  /** The idle modal, with the whole seconds left before the session ends. */
  | { phase: "warning"; remainingS: number }
  /** The session has ended. */
  | { phase: "expired" };

/** Milliseconds idle; a stamp in the future (another tab's clock moved) counts as no idle time. */
export function idleMs(lastActiveMs: number, nowMs: number): number {
  return Math.max(0, nowMs - lastActiveMs);
}

export function inactivityState(
  lastActiveMs: number,
  nowMs: number,
  timing: SessionTiming = DEFAULT_SESSION_TIMING,
): InactivityState {
  if (!Number.isFinite(lastActiveMs)) return { phase: "expired" };
  const timeoutMs = Math.min(timing.timeoutS, SESSION_MAX_ALLOWED_S) * 1000;
  const remainingMs = timeoutMs - idleMs(lastActiveMs, nowMs);
  if (remainingMs <= 0) return { phase: "expired" };
  const warningMs = Math.min(timing.warningS, timing.timeoutS) * 1000;
  if (remainingMs <= warningMs) return { phase: "warning", remainingS: Math.ceil(remainingMs / 1000) };
  return { phase: "active", nextCheckMs: remainingMs - warningMs };
}

/** At start (a reload, a new tab): whether the user was away longer than the limit. */
export function wasAwayTooLong(
  lastActiveMs: number | undefined,
  nowMs: number,
  timing: SessionTiming = DEFAULT_SESSION_TIMING,
): boolean {
  return lastActiveMs === undefined || inactivityState(lastActiveMs, nowMs, timing).phase === "expired";
}

/** Whether an activity at nowMs should be recorded, given the last one recorded. */
export function shouldRecordActivity(lastRecordedMs: number, nowMs: number): boolean {
  return nowMs - lastRecordedMs >= IDLE_DEBOUNCE_MS || nowMs < lastRecordedMs;
}

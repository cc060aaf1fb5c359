/**
 * The device's clock against the server's. A tablet whose clock is days off (set by hand, a dead
 * battery) judged its fresh token expired by its own clock and ended the sign-in at once. The
 * server's `Date` header of the sign-in answer gives the offset (to its one second): token
 * expiry is judged on the server's time (session-store.ts), and the device is told how far its
 * clock is off, since the times it records itself (signatures, answers, events) would be wrong.
 */

/** Beyond this the clock is said to be wrong (Kerberos's default tolerance). */
export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * The server's time minus the device's, in milliseconds, from an answer's `Date` header and the
 * device's time when the request was sent and when its answer came; undefined without a
 * readable header.
 */
export function serverClockOffsetMs(dateHeader: string | null, sentAt: number, receivedAt: number) {
  const serverTime = dateHeader ? Date.parse(dateHeader) : Number.NaN;
  if (Number.isNaN(serverTime)) return undefined;
  // The header is stamped while the request is served: the middle of the round trip, and it is
  // truncated to its second, so half a second is its middle too.
  return Math.round(serverTime + 500 - (sentAt + receivedAt) / 2);
}

export type ClockSkew = {
  direction: "ahead" | "behind";
  value: number;
  unit: "day" | "hour" | "minute";
};

/** How far the device's clock is off, in the largest whole unit; undefined within tolerance. */
export function clockSkew(offsetMs: number | undefined): ClockSkew | undefined {
  if (offsetMs === undefined || Math.abs(offsetMs) <= CLOCK_TOLERANCE_MS) return undefined;
  // The server ahead of the device: the device's clock is behind.
  const direction = offsetMs > 0 ? "behind" : "ahead";
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  if (minutes >= 24 * 60) return { direction, value: Math.round(minutes / (24 * 60)), unit: "day" };
  if (minutes >= 60) return { direction, value: Math.round(minutes / 60), unit: "hour" };
  return { direction, value: minutes, unit: "minute" };
}

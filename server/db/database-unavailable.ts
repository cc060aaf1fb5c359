/**
 * Whether an error says the database cannot be reached (stopped, restarting, the connection
 * dropped) rather than that a statement was wrong. Such a request is answered 503 with
 * Retry-After, which the app's outbox sends again later; its transaction was never committed
 * (PostgreSQL rolls back what a dropped connection left open).
 */

/** The driver's and the socket's codes for a connection that is gone or never came. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's SQLSTATEs of an unreachable database: class 08 (connection exception), and
 * 57P01 to 57P03 (shut down by an administrator, after a crash, not accepting connections yet).
 */
function isUnavailableSqlState(code: string) {
  return /^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03";
}

/** Seconds a client should wait before sending again: a database restart takes a few. */
export const DATABASE_RETRY_AFTER_S = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error in its own (cause); follow a few levels, not a cycle.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || isUnavailableSqlState(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

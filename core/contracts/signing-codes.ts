/**
 * The signing password's rule and codes (core/contracts/signing-attempts.ts), without its
 * schemas: the queue page, part of the app's first download, tells a refused signature by them.
 */

/** Refused signing passwords in a row that end the session (the inactivity lock takes as many). */
export const MAX_SIGNING_ATTEMPTS = 5;

/** The 422 code of a signing password refused (not 401/403: those sign the client out). */
export const SIGNING_PASSWORD_INVALID = "signing_password_invalid";

/** The 429 code of the try that used up the session's signing attempts: the session has ended. */
export const SIGNING_ATTEMPTS_EXHAUSTED = "signing_attempts_exhausted";

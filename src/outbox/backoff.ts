import { CONSENT_REQUIRED_CODE } from "../../core/contracts/consent-gate.ts";

/**
 * Retry timing: exponential backoff with jitter, 2 s doubling up to 5 minutes (as Enketo's
 * queue does), so that many tablets coming back online do not all send at the same moment.
 */
export const RETRY_BASE_MS = 2_000;
export const RETRY_MAX_MS = 5 * 60_000;

/**
 * The wait before the next try after `attempts` failed tries (1 or more). "Equal jitter": half
 * the exponential delay for sure, the other half at random, so the wait never collapses to 0.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random) {
  const exponential = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** What an answer means for the item that was sent. */
export type SendVerdict = "delivered" | "retry" | "sign-in" | "refused";

/**
 * 2xx delivered; 401 waits for the user to sign in again; 408, 429 and 5xx are retried; so is
 * a rating refused for a consent not yet complete (a 409 consent_required): held in the queue
 * until the consent reaches the server, never failed; any other 4xx is a refusal that a retry
 * would not change.
 */
export function verdictForStatus(status: number, code?: string): SendVerdict {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 401) return "sign-in";
  if (status === 408 || status === 429 || status >= 500) return "retry";
  if (status === 409 && code === CONSENT_REQUIRED_CODE) return "retry";
  return "refused";
}

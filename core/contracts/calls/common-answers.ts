/**
 * The refusals most calls share, with the API's error body (core/contracts/errors.ts).
 */
import { errorBody } from "../errors.ts";

/** Bad input: a 400 naming each wrong field. */
export const INVALID = { 400: errorBody } as const;
/** No token, an expired or a revoked one. */
export const SIGNED_OUT = { 401: errorBody } as const;
/** A signed-in call's usual refusals: bad input, signed out, no permission. */
export const REFUSALS = { 400: errorBody, 401: errorBody, 403: errorBody } as const;
/** A write the outbox repeats (Idempotency-Key): also a key in use (409) or reused differently (422). */
export const IDEMPOTENT_REFUSALS = { ...REFUSALS, 409: errorBody, 422: errorBody } as const;

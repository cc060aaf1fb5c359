/**
 * The bounds every input of the API keeps, as zod building blocks and plain checks shared by the
 * call declarations (core/contracts/calls/), the server's input guard (server/http/input-bounds.ts)
 * and the tests that probe every call with bad input.
 *
 * - Ids are rows' keys: PostgreSQL `integer`, so 1 to 2,147,483,647. A larger whole number would
 *   reach the database and fail there (a 500); it is refused as bad input (a 400) instead.
 * - Text never holds NUL (PostgreSQL text cannot store it) or a lone UTF-16 surrogate (no UTF-8
 *   encoding exists for it: the database and the JSON encoder fail on it).
 * - JSON is nested at most MAX_JSON_DEPTH levels: no call needs more, and deep nesting makes
 *   every recursive walk (parse, validate, store, encode) slow or overflow.
 *
 * Plain data and zod only: the app and the server both import it.
 */
import * as z from "zod/mini";

/** The largest PostgreSQL `integer`: every id of a row is at most this. */
export const MAX_ID = 2_147_483_647;

/** Arrays and objects nested deeper than this are refused before the body is parsed. */
export const MAX_JSON_DEPTH = 64;

/**
 * An id in a path or a query (text, so coerced): a whole number from 1 to MAX_ID, with messages
 * that name the field.
 */
export const rowId = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .check(
      z.int(`${name} must be a whole number`),
      z.positive(`${name} must be positive`),
      z.maximum(MAX_ID, `${name} is out of range`),
    );

/** An id in a JSON body (a JSON number, not coerced): a whole number from 1 to MAX_ID. */
export const bodyId = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .check(
      z.int(`${name} must be a whole number`),
      z.positive(`${name} must be positive`),
      z.maximum(MAX_ID, `${name} is out of range`),
    );

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text is not acceptable input, or null when it is. */
export function unsafeTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(text)) return "must not contain unpaired UTF-16 surrogates";
  return null;
}

/** A free text field: no NUL, no lone surrogate. */
export const safeText = () =>
  z.string().check((context) => {
    const problem = unsafeTextProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: problem, input: context.value });
  });

/**
 * Why an ISO date and time cannot be stored, or null when it can: PostgreSQL's timestamptz and
 * JavaScript's ISO text both hold the years 1 to 9999 (in UTC, once the offset is applied: a
 * valid "0001-01-01T00:00:00+14:00" is a moment of the year 0).
 */
export function momentProblem(iso: string): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "must be a date and time";
  const year = new Date(ms).getUTCFullYear();
  return year < 1 || year > 9999 ? "must fall in the years 1 to 9999" : null;
}

/** An ISO 8601 date and time with its offset, of a moment the database can store. */
export const isoMoment = (params?: { error?: string }) =>
  z.iso.datetime({ offset: true, ...params }).check((context) => {
    const problem = momentProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: problem, input: context.value });
  });

/**
 * The one place where every request's input is bounded before any route sees it
 * (core/contracts/input-bounds.ts holds the bounds):
 *
 * - JSON bodies: nesting deeper than MAX_JSON_DEPTH is refused by scanning the raw text, before
 *   anything recursive runs on it; the text is then parsed as Fastify would (prototype poisoning
 *   refused), and every key and string checked for NUL and lone surrogates.
 * - Path params, query strings and headers: every key and value is checked the same way.
 * - Multipart bodies: the upload route reads its parts through readMultipartFields, which checks
 *   each field and turns a body without a boundary, or cut short, into a 400.
 *
 * Ids are bounded by the call declarations themselves (rowId / bodyId): their schemas run before
 * every handler. Over-size bodies (413) and unknown content types (415) are Fastify's own; a
 * call declared with a JSON body refuses any other body with a 415 (register-call.ts).
 * Every refusal here happens before the handler: a refused request changes nothing.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Multipart } from "@fastify/multipart";
import { MAX_JSON_DEPTH, unsafeTextProblem } from "../../core/contracts/input-bounds.ts";
import { HttpError, invalidRequest } from "./errors.ts";

/** Whether the JSON text nests arrays and objects deeper than `limit` (strings are skipped). */
export function jsonDepthExceeds(text: string, limit: number) {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

type TextIssue = { path: string; message: string };

/** The first key or string of a parsed JSON value (depth already bounded) that is not safe text. */
export function findUnsafeText(value: unknown, path = ""): TextIssue | null {
  if (typeof value === "string") {
    const problem = unsafeTextProblem(value);
    return problem ? { path, message: problem } : null;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const issue = findUnsafeText(value[index], path ? `${path}.${index}` : String(index));
      if (issue) return issue;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = unsafeTextProblem(key);
      if (keyProblem) return { path: path || "(a key)", message: `a key ${keyProblem}` };
      const issue = findUnsafeText(item, path ? `${path}.${key}` : key);
      if (issue) return issue;
    }
  }
  return null;
}

export function jsonTooDeep() {
  return new HttpError(
    400,
    `Invalid request. The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
    "json_too_deep",
  );
}

function unsafeTextRefusal(where: string, issue: TextIssue) {
  return invalidRequest([{ path: issue.path ? `${where}.${issue.path}` : where, message: issue.message }]);
}

/** Checks each name and value of a flat record of text (query, params, headers, form fields). */
function checkTextRecord(where: string, record: unknown) {
  if (record === null || typeof record !== "object") return;
  for (const [name, value] of Object.entries(record)) {
    const nameProblem = unsafeTextProblem(name);
    if (nameProblem) throw invalidRequest([{ path: where, message: `a name ${nameProblem}` }]);
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item !== "string") continue;
      const problem = unsafeTextProblem(item);
      if (problem) throw invalidRequest([{ path: `${where}.${name}`, message: problem }]);
    }
  }
}

/** The checks of every request's path params, query and headers (an onRequest hook). */
export function checkRequestText(request: FastifyRequest) {
  checkTextRecord("params", request.params);
  checkTextRecord("query", request.query);
  checkTextRecord("headers", request.headers);
}

/** Installs the JSON parser with its depth and text checks, and the params/query/headers check. */
export function registerInputBounds(app: FastifyInstance) {
  // No call takes plain text: Fastify's default text/plain parser goes, so such a body is a 415.
  app.removeContentTypeParser("text/plain");
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(jsonTooDeep(), undefined);
      return;
    }
    void parseJson(request, text, (error, value) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const issue = findUnsafeText(value);
      if (issue) {
        done(unsafeTextRefusal("body", issue), undefined);
        return;
      }
      done(null, value);
    });
  });
  app.addHook("onRequest", async (request) => {
    checkRequestText(request);
  });
}

/** A multipart body the parser could not read: no boundary, cut short, malformed. */
function malformedMultipart() {
  return new HttpError(
    400,
    "Invalid request. The multipart body is malformed or incomplete (is its boundary right?).",
    "multipart_malformed",
  );
}

/**
 * Reads a multipart body's parts: text fields (checked as safe text) and file parts (handed to
 * onFile, which must consume them). Errors of the multipart parser keep their 4xx (limits are
 * 413); the rest (no boundary, cut short) are a 400. A body that is not multipart is a 415.
 */
export async function readMultipartFields(
  request: FastifyRequest,
  onFile: (part: Extract<Multipart, { type: "file" }>) => Promise<void>,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) {
    throw new HttpError(415, "The upload must be multipart/form-data.", "not_multipart");
  }
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      const nameProblem = unsafeTextProblem(part.fieldname);
      if (nameProblem) {
        // A file part is read to its end first: a stream left paused would stall the request.
        if (part.type === "file") await part.toBuffer();
        throw invalidRequest([{ path: "form", message: `a field name ${nameProblem}` }]);
      }
      if (part.type === "file") {
        await onFile(part);
      } else {
        const value = String(part.value);
        const problem = unsafeTextProblem(value);
        if (problem) throw invalidRequest([{ path: part.fieldname, message: problem }]);
        fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      // @fastify/multipart's own: 413 for its limits, 406 for "not multipart" (a 415 here).
      if (status === 406)
        throw new HttpError(415, "The upload must be multipart/form-data.", "not_multipart");
      throw error;
    }
    throw malformedMultipart();
  }
  return fields;
}

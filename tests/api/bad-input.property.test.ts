/**
 * Property-based probing of every /control call with bad and odd input, generated from the call
 * declarations (core/contracts/calls/, read from the folder: a new call is probed without being
 * listed here). For each call:
 *
 * - bad input (NUL, lone surrogates, ids out of range, negative and fractional ids, wrong types,
 *   missing fields, huge strings, deep or malformed JSON, bodies of the wrong type, garbage
 *   multipart, bad headers), each request surely invalid for the call: never a 5xx, never a
 *   stack trace or SQL in the answer, and the database's row counts unchanged;
 * - odd but possibly valid input (ids at the bounds of their range, huge safe integers, emoji
 *   and right-to-left text, extra keys): never a 5xx, never a stack trace or SQL.
 *
 * Public calls (sign-in and the emailed links among them) are probed without a token, the others
 * with an administrator's. Runs are bounded and seeded: FC_SEED=<n> replays a failure, whose seed
 * and counterexample fast-check prints.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, expect, it } from "vitest";
import * as z from "zod/v4/core";
import { MAX_ID, MAX_JSON_DEPTH } from "../../core/contracts/input-bounds.ts";
import { isMultipartBody, type CallDeclaration } from "../../core/contracts/http/define-call.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import {
  fillPath,
  loadCallDeclarations,
  pathParamNames,
  type NamedCall,
} from "../support/call-declarations.ts";
import { rowCounts } from "../support/row-counts.ts";

const SEED = Number(process.env.FC_SEED ?? 20261124);
const BAD_RUNS = 24;
const ODD_RUNS = 12;

const calls: NamedCall[] = await loadCallDeclarations();

// ---------------------------------------------------------------------------------------------
// What the declarations' schemas look like (zod 4): the fields of an object body, an array's items.

type ZodDef = { type: string; innerType?: z.$ZodType; in?: z.$ZodType; element?: z.$ZodType };
const defOf = (schema: z.$ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

function unwrap(schema: z.$ZodType): z.$ZodType {
  let current = schema;
  for (let guard = 0; guard < 10; guard++) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else break;
  }
  return current;
}

/** The field names of an object schema (after optional, default, pipe), or of an array's items. */
function fieldsOf(schema: z.$ZodType | undefined): { array: boolean; fields: string[] } {
  if (!schema) return { array: false, fields: [] };
  const inner = unwrap(schema);
  if (inner instanceof z.$ZodObject) return { array: false, fields: Object.keys(inner._zod.def.shape) };
  const def = defOf(inner);
  if (def.type === "array" && def.element) return { array: true, fields: fieldsOf(def.element).fields };
  return { array: false, fields: [] };
}

type FullDef = ZodDef & {
  shape?: Record<string, z.$ZodType>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  options?: z.$ZodType[];
};

/**
 * A value of the schema's type, plausible for its field (odd: at the edges of what the type
 * allows, e.g. the largest safe integer for a number). Enough to make a body that is valid but
 * for the one part a test spoils.
 */
function plausible(schema: z.$ZodType, odd: boolean, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema) as FullDef;
  if (depth > 5) return fc.constant(1);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return def.innerType ? plausible(def.innerType, odd, depth + 1) : fc.constant(1);
    case "pipe":
      return def.in ? plausible(def.in, odd, depth + 1) : fc.constant(1);
    case "string":
      return odd
        ? fc.constantFrom(
            "😀",
            "\u202eabc",
            "ümlaut",
            "'\"",
            "日本語",
            "",
            " ",
            "2147483647",
            "x".repeat(300),
          )
        : fc.constantFrom(
            "a",
            "clinro",
            "DemoPass1!",
            "staff1@demo.test",
            "2026-11-24T10:00:00.000Z",
            "Europe/Madrid",
          );
    case "number":
    case "int":
      return odd
        ? fc.constantFrom(Number.MAX_SAFE_INTEGER, MAX_ID, 2 ** 31, -1, 0, 1e300, 0.5)
        : fc.constantFrom(1, 5, 101, 1011, 1021);
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? { a: "a" }));
    case "literal":
      return fc.constantFrom(...(def.values ?? ["a"]));
    case "array":
      return def.element
        ? fc.array(plausible(def.element, odd, depth + 1), { maxLength: 2 })
        : fc.constant([]);
    case "object": {
      const shape = (schema as z.$ZodObject)._zod.def.shape as Record<string, z.$ZodType>;
      return fc.record(
        Object.fromEntries(
          Object.entries(shape).map(([key, field]) => [key, plausible(field, odd, depth + 1)]),
        ),
      );
    }
    case "union":
      return fc.oneof(...(def.options ?? []).map((option) => plausible(option, odd, depth + 1)));
    default:
      return fc.constant(odd ? "😀" : "a");
  }
}

/** A plausible body with one top-level field (of the first item, for an array) spoilt or removed. */
function spoiltBody(schema: z.$ZodType): fc.Arbitrary<unknown> {
  const { array, fields } = fieldsOf(schema);
  if (fields.length === 0) return badJsonValue;
  const base = plausible(schema, false);
  return fc
    .record({ base, field: fc.constantFrom(...fields), bad: fc.option(badJsonValue, { nil: undefined }) })
    .map(({ base: value, field, bad }) => {
      const target = (array ? (Array.isArray(value) ? value[0] : undefined) : value) as
        Record<string, unknown> | undefined;
      if (target && typeof target === "object") {
        if (bad === undefined) delete target[field];
        else target[field] = bad;
      }
      if (array && Array.isArray(value) && value.length === 0) return [{ [field]: bad }];
      return value;
    });
}

// ---------------------------------------------------------------------------------------------
// Generators. Texts use a small alphabet: an answer that echoes the input cannot look like SQL.

const POISON_TEXTS = ["\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF\uDBFF", "\uDFFF\uD800"];
const poisonText = fc
  .tuple(fc.string({ maxLength: 4 }), fc.constantFrom(...POISON_TEXTS), fc.string({ maxLength: 4 }))
  .map(([before, poison, after]) => `${before}${poison}${after}`.replace(/[a-z ]{4,}/gi, "x"));

/** Id-like texts (paths, queries) that are no valid id. */
const badIdText = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "-2147483648",
    "1.5",
    "2147483648",
    "4294967296",
    "9007199254740993",
    "99999999999999999999999",
    "1e400",
    "-0.0001",
    "NaN",
    "Infinity",
    "0x10",
    "x",
    "1 2",
  ),
  fc.bigInt({ min: BigInt(MAX_ID) + 1n, max: 10n ** 40n }).map(String),
  fc.integer({ min: -2147483648, max: 0 }).map(String),
);

/** Larger than any call's body limit (the submission's 8 MiB included): a 413. */
const OVERSIZE_BODY = JSON.stringify({ pad: "x".repeat(9 * 1024 * 1024) });

const hugeText = fc.integer({ min: 3_000, max: 200_000 }).map((length) => "x".repeat(length));

/** JSON values no field of any call accepts as they are (with id-like numbers out of range). */
const badJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  poisonText,
  fc.constantFrom(2147483648, -1, 0, 1.5, 1e300, -1e300, Number.MAX_SAFE_INTEGER + 2, 2 ** 53 + 2),
  fc.bigInt({ min: BigInt(MAX_ID) + 1n, max: 10n ** 30n }).map(Number),
  fc.constant(null),
  fc.array(poisonText, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom("a", "id", "x"), poisonText, { maxKeys: 2 }),
  hugeText,
);

/** Odd values that are still of a plausible type: ids at their bounds, big numbers, odd text. */
const oddJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(1, MAX_ID, Number.MAX_SAFE_INTEGER, 101, 1011, 102, 1021, 103, 1031),
  fc.constantFrom("", " ", "😀", "\u202eabc", "ümlaut", "'\"", "日本語", "2147483647", "clinro", "admin"),
  fc.boolean(),
  fc.string({ maxLength: 30, unit: "grapheme" }),
  fc.constant(null),
);

const oddIdText = fc.oneof(
  fc.constantFrom("1", "101", "102", "103", "1011", "1021", "1031", String(MAX_ID), "00101", "101.0", "+101"),
  fc.integer({ min: 1, max: 5000 }).map(String),
);

/** A path or query value: encoded as a browser would, raw when it cannot be (a lone surrogate). */
function encode(value: string) {
  try {
    return encodeURIComponent(value);
  } catch {
    return value;
  }
}

function objectFor(fields: string[], value: fc.Arbitrary<unknown>) {
  const keys = [...fields, "extra_key"];
  return fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
}

type Probe = {
  pathValues: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The raw body and its content type, when one is sent. */
  body?: { text: string; contentType: string };
  /** A part of the request no call accepts (so the request is bad whatever the rest). */
  poisoned: boolean;
};

function queryString(query: Record<string, string>) {
  const pairs = Object.entries(query).map(([key, value]) => `${encode(key)}=${encode(value)}`);
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

const hasBody = (call: CallDeclaration) => call.method !== "GET";

function multipartText(fields: Record<string, string>, boundary: string, cut: boolean) {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const text = `${parts.join("")}--${boundary}\r\nContent-Disposition: form-data; name="upload_file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG garbage\r\n--${boundary}--\r\n`;
  return cut ? text.slice(0, Math.max(10, Math.floor(text.length / 2))) : text;
}

/** Bad bodies for a call: JSON with bad fields, deep, malformed, too large, of the wrong type. */
function badBody(
  call: CallDeclaration,
): fc.Arbitrary<{ text: string; contentType: string; poisoned: boolean }> {
  const json = "application/json";
  const generic = fc.oneof(
    fc.integer({ min: MAX_JSON_DEPTH + 1, max: 20_000 }).map((depth) => ({
      text: "[".repeat(depth) + "]".repeat(depth),
      contentType: json,
      poisoned: true,
    })),
    fc.integer({ min: MAX_JSON_DEPTH + 1, max: 300 }).map((depth) => ({
      text: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      contentType: json,
      poisoned: true,
    })),
    fc
      .constantFrom(
        '{"a":',
        "[",
        "{",
        '{"a":1,}',
        "nul",
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
      )
      .map((text) => ({ text, contentType: json, poisoned: true })),
    poisonText.map((text) => ({ text: JSON.stringify({ value: text }), contentType: json, poisoned: true })),
    fc.constant({ text: OVERSIZE_BODY, contentType: json, poisoned: true }),
    fc
      .constantFrom("text/plain", "application/xml", "application/x-www-form-urlencoded")
      .map((contentType) => ({
        text: "a=1&b=2",
        contentType,
        poisoned: true,
      })),
  );
  if (call.body && isMultipartBody(call.body)) {
    const fields = Object.keys(call.body.multipart._zod.def.shape);
    const garbage = fc
      .record({
        fields: objectFor(fields, fc.oneof(poisonText, badIdText)),
        cut: fc.boolean(),
        boundary: fc.constantFrom("b0undary", "x"),
        declaredBoundary: fc.constantFrom("b0undary", "", "other"),
      })
      .map(({ fields: values, cut, boundary, declaredBoundary }) => ({
        text: multipartText(values as Record<string, string>, boundary, cut),
        contentType: declaredBoundary
          ? `multipart/form-data; boundary=${declaredBoundary}`
          : "multipart/form-data",
        // Checked by the fields' schema below when the body itself is well formed.
        poisoned: cut || declaredBoundary !== boundary,
      }));
    return fc.oneof(garbage, generic);
  }
  const schema = call.body as z.$ZodType | undefined;
  if (!schema) return generic;
  const { array, fields } = fieldsOf(schema);
  const item = objectFor(fields, badJsonValue);
  const scattered = (array ? fc.array(item, { maxLength: 3 }) : item).map((value) => ({
    text: JSON.stringify(value),
    contentType: json,
    poisoned: false,
  }));
  // Valid but for one field: what reaches the deepest before it is refused.
  const spoilt = spoiltBody(schema).map((value) => ({
    text: JSON.stringify(value),
    contentType: json,
    poisoned: false,
  }));
  return fc.oneof(
    { arbitrary: spoilt, weight: 4 },
    { arbitrary: scattered, weight: 1 },
    { arbitrary: generic, weight: 2 },
  );
}

function badProbe(call: CallDeclaration): fc.Arbitrary<Probe> {
  const names = pathParamNames(call);
  const queryFields = fieldsOf(call.query).fields;
  const pathValues = fc.record(
    Object.fromEntries(names.map((name) => [name, fc.oneof(badIdText, poisonText, oddIdText)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = objectFor(
    queryFields,
    fc.oneof(
      badIdText,
      poisonText,
      hugeText.map((text) => text.slice(0, 5000)),
    ),
  );
  const headers = fc.oneof(
    { arbitrary: fc.constant({} as Record<string, string>), weight: 4 },
    poisonText.map((text) => ({ "x-header-version": text })),
    fc.constantFrom("\u0000", "key\uD800").map((key) => ({ "idempotency-key": key })),
  );
  return fc
    .record({
      pathValues,
      query,
      headers,
      body: hasBody(call) ? fc.option(badBody(call), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ pathValues: values, query: queryValues, headers: headerValues, body }) => ({
      pathValues: values,
      query: queryValues as Record<string, string>,
      headers: headerValues,
      body: body && { text: body.text, contentType: body.contentType },
      poisoned: (body?.poisoned ?? false) || Object.keys(headerValues).length > 0,
    }));
}

function oddProbe(call: CallDeclaration): fc.Arbitrary<Probe> {
  const names = pathParamNames(call);
  const pathValues = fc.record(Object.fromEntries(names.map((name) => [name, oddIdText]))) as fc.Arbitrary<
    Record<string, string>
  >;
  const query = objectFor(
    fieldsOf(call.query).fields,
    fc.oneof(oddIdText, fc.constantFrom("clinro", "😀", "ab")),
  );
  const schema = call.body && !isMultipartBody(call.body) ? call.body : undefined;
  const { array, fields } = fieldsOf(schema);
  const item = objectFor(fields, oddJsonValue);
  const scattered = array ? fc.array(item, { minLength: 1, maxLength: 3 }) : item;
  const body =
    hasBody(call) && schema
      ? fc
          .oneof(plausible(schema, true), plausible(schema, false), scattered)
          .map((value) => ({ text: JSON.stringify(value), contentType: "application/json" }))
      : fc.constant(undefined);
  return fc
    .record({ pathValues, query, body })
    .map(({ pathValues: values, query: queryValues, body: sent }) => ({
      pathValues: values,
      query: queryValues as Record<string, string>,
      headers: {},
      body: sent,
      poisoned: false,
    }));
}

/** Whether the request is surely refused: a poisoned part, or a part its schema refuses. */
function surelyInvalid(call: CallDeclaration, probe: Probe): boolean {
  if (probe.poisoned) return true;
  // NUL in a URL arrives as it is (%00); a lone surrogate cannot be sent in one (its UTF-8 does
  // not exist: it arrives as U+FFFD, or as bytes that do not decode), so it is odd, not bad.
  const texts = [...Object.values(probe.pathValues), ...Object.entries(probe.query).flat()];
  if (texts.some((text) => text.includes("\u0000"))) return true;
  const decodedPath = Object.fromEntries(
    Object.entries(probe.pathValues).map(([key, value]) => [key, value]),
  );
  if (call.params && !z.safeParse(call.params, decodedPath).success) return true;
  if (call.query && !z.safeParse(call.query, probe.query).success) return true;
  if (call.body && probe.body) {
    if (isMultipartBody(call.body)) return true; // a garbage file: refused by its checks, and counted below
    let parsed: unknown;
    try {
      parsed = JSON.parse(probe.body.text);
    } catch {
      return true;
    }
    return !z.safeParse(call.body as z.$ZodType, parsed).success;
  }
  // A call with a body that receives none is refused by its schema.
  return call.body !== undefined && !isMultipartBody(call.body) && !probe.body;
}

const LEAKS = [
  /select /i,
  /insert /i,
  /update \S+ set/i,
  /syntax error/i,
  /at \//,
  /\n\s+at /,
  /node_modules/,
];

function expectNoLeak(call: CallDeclaration, url: string, response: LightMyRequestResponse) {
  const where = `${call.method} ${url.slice(0, 200)} answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(500);
  for (const leak of LEAKS) expect(response.body, where).not.toMatch(leak);
}

describeOnEachDatabase("bad and odd input to every /control call", (api) => {
  let adminToken = "";
  beforeAll(async () => {
    adminToken = await api.signIn("admin@demo.test");
  });

  const send = async (call: CallDeclaration, probe: Probe) => {
    const url = fillPath(
      call,
      Object.fromEntries(Object.entries(probe.pathValues).map(([k, v]) => [k, encode(v)])),
    );
    const fullUrl = `${url}${queryString(probe.query)}`;
    const headers: Record<string, string> = {};
    if (call.idempotent) headers["idempotency-key"] = randomUUID();
    if (probe.body) headers["content-type"] = probe.body.contentType;
    Object.assign(headers, probe.headers);
    const response = await api.request(call.method, fullUrl, {
      ...(call.public ? {} : { token: adminToken }),
      headers,
      ...(probe.body ? { body: probe.body.text } : {}),
    });
    return { url: fullUrl, response };
  };

  it("probes every declared call (the list is read from core/contracts/calls/)", () => {
    expect(calls.length).toBeGreaterThan(30);
    const registered = new Set(api.app.registeredCalls.map((call) => `${call.method} ${call.path}`));
    for (const { name, call } of calls) expect(registered, name).toContain(`${call.method} ${call.path}`);
  });

  for (const { name, call } of calls) {
    it(`${name} (${call.method} ${call.path}): bad input is a 4xx without a trace, and changes nothing`, async () => {
      // Mail an earlier probe started (a reset link) writes when it is sent: not this call's doing.
      await api.app.backgroundTasks.drain();
      const before = await rowCounts(api.db);
      await fc.assert(
        fc.asyncProperty(badProbe(call), async (candidate) => {
          // Sure to be bad: when the generated parts all happen to be valid, one is poisoned.
          const probe = surelyInvalid(call, candidate)
            ? candidate
            : { ...candidate, query: { ...candidate.query, zz: "\u0000" }, poisoned: true };
          const { url, response } = await send(call, probe);
          expectNoLeak(call, url, response);
          expect(
            response.statusCode,
            `${call.method} ${url.slice(0, 200)}: ${response.body.slice(0, 200)}`,
          ).toBeGreaterThanOrEqual(400);
        }),
        { seed: SEED, numRuns: BAD_RUNS, endOnFailure: true },
      );
      await api.app.backgroundTasks.drain();
      expect(
        await rowCounts(api.db),
        `${name}: a refused request changed the database (seed ${SEED})`,
      ).toEqual(before);
    });

    // Signing out ends the token the other probes use: its only input is the token itself.
    if (call.path === "/control/clinro/logout") continue;
    it(`${name} (${call.method} ${call.path}): odd but plausible input is never a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(oddProbe(call), async (probe) => {
          const { url, response } = await send(call, probe);
          expectNoLeak(call, url, response);
        }),
        { seed: SEED, numRuns: ODD_RUNS, endOnFailure: true },
      );
    });
  }
});

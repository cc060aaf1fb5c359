/**
 * Bad input is refused in one place before any route sees it (server/http/input-bounds.ts, the
 * call declarations' bounded ids, register-call.ts's content type check): NUL and lone
 * surrogates in any text, ids beyond PostgreSQL's integer range, JSON nested too deep, bodies too
 * large or of the wrong type, multipart bodies without a boundary or cut short. Each is a 4xx
 * with the API's error body and changes nothing. A failure that does reach the database answers
 * a bare 500 and logs neither the SQL nor its parameters.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { MAX_JSON_DEPTH } from "../../core/contracts/input-bounds.ts";
import { executeRows } from "../../server/db/client.ts";
import { findUnsafeText, jsonDepthExceeds } from "../../server/http/input-bounds.ts";
import { errorSummary } from "../../server/http/error-summary.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { rowCounts } from "../support/row-counts.ts";

const JSON_HEADERS = { "content-type": "application/json" };
const EVENTS = "/control/participants/me/events?platform=clinro";

function expectRefused(response: LightMyRequestResponse, status: number, messagePattern?: RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  const body = errorBody.parse(response.json());
  if (messagePattern) expect(body.message).toMatch(messagePattern);
  expect(response.body).not.toMatch(/\bat \/|select |insert |syntax error/i);
}

describe("the input bounds' own checks", () => {
  it("measures JSON depth on the raw text, ignoring brackets inside strings", () => {
    expect(jsonDepthExceeds("[".repeat(3) + "]".repeat(3), 3)).toBe(false);
    expect(jsonDepthExceeds("[".repeat(4) + "]".repeat(4), 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":{"c":"[[[[[[{{{{"}}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":"\\"[[[[","b":[[[[]]]]}', 3)).toBe(true);
  });

  it("finds NUL and lone surrogates in keys and values, paired surrogates pass", () => {
    expect(findUnsafeText({ a: ["ok", "😀"] })).toBeNull();
    expect(findUnsafeText({ a: [{ b: "x\u0000" }] })).toEqual({
      path: "a.0.b",
      message: "must not contain NUL characters",
    });
    expect(findUnsafeText({ a: "\uD800" })?.message).toMatch(/surrogate/);
    expect(findUnsafeText({ a: "x\uDC00y" })?.message).toMatch(/surrogate/);
    expect(findUnsafeText({ ["k\u0000"]: 1 })?.message).toMatch(/a key/);
  });

  it("summarises an error for the log without its message", () => {
    const cause = Object.assign(new Error('value "99999999999" is out of range for type integer'), {
      code: "22003",
    });
    const error = new Error(
      "Failed query: select * from users where id = $1\nparams: 99999999999\nat /evil",
      {
        cause,
      },
    );
    const summary = errorSummary(error);
    expect(summary).toMatchObject({ type: "Error", cause: { type: "Error", code: "22003" } });
    const text = JSON.stringify(summary);
    expect(text).not.toContain("select");
    expect(text).not.toContain("99999999999");
    expect(text).not.toContain("evil");
    expect(summary.frames?.length).toBeGreaterThan(0);
  });
});

/** Every line the server logs (pino's JSON lines). */
const logLines: string[] = [];
const logStream = { write: (line: string) => void logLines.push(line) };

describeOnEachDatabase(
  "bad input is refused before any route sees it",
  (api) => {
    let token = "";
    let participantId = 0;
    let foreignParticipantId = 0;
    let before: Record<string, number> = {};
    beforeAll(async () => {
      // staff3 works in studies 101 and 103; study 102's participants are foreign to them.
      token = await api.signIn("staff3@demo.test");
      const list = await executeRows<{ id: number; study_id: number }>(
        api.db,
        sql`select id, study_id from participants where study_id in (101, 102) order by id`,
      );
      participantId = list.find((row) => row.study_id === 101)!.id;
      foreignParticipantId = list.find((row) => row.study_id === 102)!.id;
    });
    beforeEach(async () => {
      before = await rowCounts(api.db);
    });
    const expectNothingChanged = async () => expect(await rowCounts(api.db)).toEqual(before);
    const event = (extra: Record<string, unknown>) => ({
      type: "seen",
      timestamp: new Date().toISOString(),
      ...extra,
    });
    const postEvents = (body: unknown, headers: Record<string, string> = {}) =>
      api.request("POST", EVENTS, {
        token,
        body: typeof body === "string" ? body : JSON.stringify(body),
        headers: { ...JSON_HEADERS, "idempotency-key": randomUUID(), ...headers },
      });

    it("NUL and lone surrogates in a JSON body: 400 naming the field (sign-in without a token too)", async () => {
      expectRefused(
        await api.request("POST", "/control/clinro/login", { body: { username: "a\u0000b", password: "x" } }),
        400,
        /body\.username: must not contain NUL/,
      );
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: '{"username":"\\ud800","password":"x"}',
          headers: JSON_HEADERS,
        }),
        400,
        /body\.username: must not contain unpaired UTF-16 surrogates/,
      );
      expectRefused(await postEvents([event({ info: { note: "x\u0000" } })]), 400, /body\.0\.info\.note/);
      await expectNothingChanged();
    });

    it("NUL and lone surrogates in path params, query strings and headers: 400", async () => {
      expectRefused(await api.request("GET", "/control/studies/10%001", { token }), 400, /params\.studyId/);
      expectRefused(
        await api.request("GET", "/control/studies/101/sites/1011/clinro_search?search=ab%00c", { token }),
        400,
        /query\.search: must not contain NUL/,
      );
      expectRefused(
        await api.request("GET", "/control/studies/101/sites/1011/clinro_search?search=%ED%A0%80", { token }),
        400,
      );
      expectRefused(
        await api.request("GET", "/control/studies/101/sites/1011/clinro_search?search=\uD800", { token }),
        400,
      );
      expectRefused(
        await api.request("GET", "/control/studies/%ED%A0%80", { token }),
        400,
        /does not decode/,
      );
      expectRefused(
        await api.request("GET", "/control/clinro/users/me", {
          token,
          headers: { "x-header-version": "0\u00001" },
        }),
        400,
        /headers\.x-header-version/,
      );
      expectRefused(
        await postEvents([event({})], { "idempotency-key": "key\uDC00" }),
        400,
        /idempotency-key/,
      );
      await expectNothingChanged();
    });

    it("ids beyond PostgreSQL's integer range, in a path, a query, a JSON body, a form: 400", async () => {
      const huge = "2147483648";
      expectRefused(await api.request("GET", `/control/studies/${huge}`, { token }), 400, /out of range/);
      expectRefused(
        await api.request("GET", `/control/pending_instruments?study_id=${huge}`, { token }),
        400,
        /out of range/,
      );
      expectRefused(await postEvents([event({ study_id: 2147483648 })]), 400, /study_id is out of range/);
      expectRefused(await postEvents([event({ participant: 1e20 })]), 400, /participant/);
      expectRefused(await postEvents([event({ study_id: -1 })]), 400, /study_id must be positive/);
      expectRefused(await postEvents([event({ study_id: 1.5 })]), 400, /whole number/);
      await expectNothingChanged();
    });

    it("events name only the user's studies and participants: 403 otherwise, nothing stored", async () => {
      // Study 102 is not staff3's; the participant is theirs but not of that study.
      expectRefused(await postEvents([event({ study_id: 102 })]), 403);
      expectRefused(await postEvents([event({ study_id: 102, participant: participantId })]), 403);
      expectRefused(await postEvents([event({ study_id: 101, participant: foreignParticipantId })]), 403);
      expectRefused(await postEvents([event({ participant: foreignParticipantId })]), 403);
      expectRefused(await postEvents([event({ info: { study_id: 102 } })]), 403);
      expectRefused(await postEvents([event({ info: { study_id: "102" } })]), 403);
      expectRefused(await postEvents([event({ info: { study_id: 99999999999 } })]), 403);
      // Study 103 is theirs, the participant is of 101: a mismatch is refused too.
      expectRefused(await postEvents([event({ study_id: 103, participant: participantId })]), 403);
      await expectNothingChanged();
      const accepted = await postEvents([event({ study_id: 101, participant: participantId })]);
      expect(accepted.statusCode, accepted.body).toBe(200);
    });

    it(`JSON nested deeper than ${MAX_JSON_DEPTH} levels: 400 before it is parsed, even 100,000 deep`, async () => {
      const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
      expectRefused(
        await api.request("POST", "/control/clinro/login", { body: deep(100_000), headers: JSON_HEADERS }),
        400,
        /nested more than 64 levels/,
      );
      expectRefused(
        await postEvents(`[{"type":"seen","info":${'{"a":'.repeat(70)}1${"}".repeat(70)}}]`),
        400,
      );
      // Within the limit the body is parsed and checked by the call's schema as usual.
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: deep(MAX_JSON_DEPTH),
          headers: JSON_HEADERS,
        }),
        400,
        /expected object/,
      );
      await expectNothingChanged();
    });

    it("bodies too large: 413; a body of the wrong type: 415; malformed JSON: 400", async () => {
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: JSON.stringify({ username: "x".repeat(2_000_000), password: "y" }),
          headers: JSON_HEADERS,
        }),
        413,
      );
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: "hello",
          headers: { "content-type": "text/plain" },
        }),
        415,
      );
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: "username=a&password=b",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
        415,
      );
      expectRefused(
        await api.request("POST", "/control/clinro/login", {
          body: '--b\r\nContent-Disposition: form-data; name="username"\r\n\r\na\r\n--b--\r\n',
          headers: { "content-type": "multipart/form-data; boundary=b" },
        }),
        415,
        /application\/json/,
      );
      expectRefused(await postEvents('[{"type":"seen",'), 400);
      await expectNothingChanged();
    });

    it("multipart without a boundary, cut short, or with NUL in a field: 400; not multipart: 415", async () => {
      const upload = (body: string, contentType: string) =>
        api.request("POST", "/control/file/upload", {
          token,
          body,
          headers: { "content-type": contentType, "idempotency-key": randomUUID() },
        });
      const field = (name: string, value: string) =>
        `--xyz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      expectRefused(await upload(field("file_name", "a.png"), "multipart/form-data"), 400, /multipart body/);
      expectRefused(
        await upload(
          `--xyz\r\nContent-Disposition: form-data; name="file_name"\r\n\r\nab`,
          "multipart/form-data; boundary=xyz",
        ),
        400,
        /multipart body/,
      );
      expectRefused(
        await upload(`${field("file_name", "a\u0000.png")}--xyz--\r\n`, "multipart/form-data; boundary=xyz"),
        400,
        /file_name: must not contain NUL/,
      );
      expectRefused(
        await upload(
          `${field("participant_id", "2147483648")}${field("file_name", "a.png")}--xyz--\r\n`,
          "multipart/form-data; boundary=xyz",
        ),
        400,
      );
      expectRefused(await upload('{"file_name":"a.png"}', "application/json"), 415);
      await expectNothingChanged();
    });
  },
  { appOptions: { logLevel: "info", logStream } },
);

describeOnEachDatabase(
  "a failure in the database answers a bare 500 and logs no SQL or parameters",
  (api) => {
    it("logs the error's class, code and the request id; the answer names nothing", async () => {
      const token = await api.signIn("coordinator@demo.test");
      // Break the table the study call reads, so the query fails inside the database.
      await api.db.execute(sql`alter table studies rename to studies_hidden`);
      logLines.length = 0;
      try {
        const response = await api.request("GET", "/control/studies/103", { token });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ message: "Internal server error", code: "internal" });
      } finally {
        await api.db.execute(sql`alter table studies_hidden rename to studies`);
      }
      const failures = logLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.level === 50);
      expect(failures).toHaveLength(1);
      const [failure] = failures;
      expect(failure).toMatchObject({ msg: "Request failed", reqId: expect.any(String) });
      // The database's code for an unknown table (42P01) is kept, its message is not.
      expect(JSON.stringify(failure)).toContain("42P01");
      const text = JSON.stringify(failure).toLowerCase();
      for (const sqlText of ["select", " from ", "where", "$1", "params", "studies_hidden"]) {
        expect(text).not.toContain(sqlText);
      }
    });
  },
  { appOptions: { logLevel: "info", logStream } },
);

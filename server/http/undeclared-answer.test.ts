import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCall } from "../../core/contracts/http/define-call.ts";
import { undeclaredAnswer } from "./undeclared-answer.ts";

const call = defineCall({
  operationId: "probe",
  tag: "Probe",
  scope: "own",
  method: "GET",
  path: "/control/example/{id}",
  summary: "An example",
  answers: {
    200: z.object({ ok: z.boolean() }),
    201: { contentTypes: ["application/pdf", "application/json"], description: "A file" },
    204: { empty: true, description: "Nothing" },
    403: z.object({ message: z.string() }),
  },
});

describe("undeclaredAnswer", () => {
  it("accepts a declared JSON status, and the statuses any route may give", () => {
    expect(undeclaredAnswer(call, 200, "application/json", "{}")).toBeNull();
    expect(undeclaredAnswer(call, 403, "application/json", "{}")).toBeNull();
    for (const status of [400, 413, 415, 429, 500, 503]) {
      expect(undeclaredAnswer(call, status, "application/json", "{}")).toBeNull();
    }
  });

  it("names a status the call does not declare", () => {
    expect(undeclaredAnswer(call, 404, "application/json", "{}")).toBe(
      "answered 404, which the call does not declare",
    );
  });

  it("checks a file answer's content type, parameters aside", () => {
    expect(undeclaredAnswer(call, 201, "application/pdf", Buffer.from("%PDF"))).toBeNull();
    expect(undeclaredAnswer(call, 201, "application/json; charset=utf-8", "{}")).toBeNull();
    expect(undeclaredAnswer(call, 201, "text/html", "<p>")).toBe(
      "answered 201 as text/html, declared application/pdf, application/json",
    );
    expect(undeclaredAnswer(call, 201, undefined, "x")).toMatch(/as no content type/);
  });

  it("refuses a body on a declared-empty answer", () => {
    expect(undeclaredAnswer(call, 204, undefined, undefined)).toBeNull();
    expect(undeclaredAnswer(call, 204, undefined, "")).toBeNull();
    expect(undeclaredAnswer(call, 204, "application/json", '{"a":1}')).toBe(
      "answered 204 with a body, declared empty",
    );
  });
});

import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

const withCode = (code: string, cause?: unknown) => Object.assign(new Error("failed"), { code }, { cause });

describe("isDatabaseUnavailable", () => {
  it("knows the driver's and the socket's codes of a lost or refused connection", () => {
    for (const code of [
      "CONNECTION_CLOSED",
      "CONNECTION_ENDED",
      "CONNECT_TIMEOUT",
      "ECONNREFUSED",
      "ECONNRESET",
    ]) {
      expect([code, isDatabaseUnavailable(withCode(code))]).toEqual([code, true]);
    }
  });

  it("knows PostgreSQL's connection exceptions and shutdowns", () => {
    for (const code of ["08006", "08001", "57P01", "57P02", "57P03"]) {
      expect([code, isDatabaseUnavailable(withCode(code))]).toEqual([code, true]);
    }
  });

  it("looks through Drizzle's wrapper to the driver's error", () => {
    const wrapped = new Error("Failed query: select 1", { cause: withCode("CONNECTION_CLOSED") });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it("leaves a statement's own errors alone: they are not the database being down", () => {
    for (const code of ["23505", "22P02", "40001", "42501", "57014"]) {
      expect([code, isDatabaseUnavailable(withCode(code))]).toEqual([code, false]);
    }
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

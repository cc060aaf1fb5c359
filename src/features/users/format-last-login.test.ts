import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format-last-login.ts";

describe("the last login's format", () => {
  it("is DD-MMM-YYYY HH:mm in local time", () => {
    const local = new Date(2026, 2, 2, 9, 5, 0);
    expect(formatDateTime(local.toISOString())).toBe("02-Mar-2026 09:05");
  });
});

import { describe, expect, it } from "vitest";
import { RETRY_MAX_MS, retryDelayMs, verdictForStatus } from "./backoff.ts";

describe("what an answer means for a queued write", () => {
  it.each([
    [200, "delivered"],
    [201, "delivered"],
    [204, "delivered"],
    [401, "sign-in"],
    [408, "retry"],
    [429, "retry"],
    [500, "retry"],
    [503, "retry"],
    [400, "refused"],
    [403, "refused"],
    [404, "refused"],
    [422, "refused"],
  ] as const)("%i means %s", (status, verdict) => {
    expect(verdictForStatus(status)).toBe(verdict);
  });
});

describe("retry delay", () => {
  it("waits between half and all of 2 s times 2^(attempts-1)", () => {
    expect(retryDelayMs(1, () => 0)).toBe(1000);
    expect(retryDelayMs(1, () => 1)).toBe(2000);
    expect(retryDelayMs(3, () => 0)).toBe(4000);
    expect(retryDelayMs(3, () => 1)).toBe(8000);
  });

  it("never waits more than five minutes, however many attempts", () => {
    expect(retryDelayMs(50, () => 1)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(10_000, () => 0.999)).toBeLessThanOrEqual(RETRY_MAX_MS);
  });

  it("spreads the waits of many tablets (jitter)", () => {
    const waits = new Set(Array.from({ length: 20 }, (_, index) => retryDelayMs(4, () => index / 20)));
    expect(waits.size).toBe(20);
  });
});

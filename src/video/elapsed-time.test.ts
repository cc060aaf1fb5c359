import { describe, expect, it } from "vitest";
import { formatElapsed } from "./elapsed-time.ts";

describe("formatElapsed", () => {
  it("reads m:ss under an hour and h:mm:ss from then on", () => {
    expect(formatElapsed(0)).toBe("0:00");
    expect(formatElapsed(9_999)).toBe("0:09");
    expect(formatElapsed(61_000)).toBe("1:01");
    expect(formatElapsed(59 * 60_000 + 59_000)).toBe("59:59");
    expect(formatElapsed(3_600_000 + 5 * 60_000 + 7_000)).toBe("1:05:07");
  });

  it("never reads below zero (a clock set back)", () => {
    expect(formatElapsed(-5_000)).toBe("0:00");
  });
});

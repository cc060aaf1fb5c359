import { describe, expect, it } from "vitest";
import { clockSkew, serverClockOffsetMs } from "./device-clock.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("the server's clock against the device's", () => {
  it("reads the offset from the Date header, at the middle of the round trip", () => {
    const server = Date.parse("Wed, 02 Dec 2026 06:00:00 GMT");
    const device = server + 8 * DAY;
    expect(serverClockOffsetMs("Wed, 02 Dec 2026 06:00:00 GMT", device - 100, device + 100)).toBe(
      -8 * DAY + 500,
    );
  });

  it("has no offset without a readable header", () => {
    expect(serverClockOffsetMs(null, 0, 10)).toBeUndefined();
    expect(serverClockOffsetMs("not a date", 0, 10)).toBeUndefined();
  });
});

describe("how far the device's clock is off", () => {
  it.each([
    [-8 * DAY + 500, { direction: "ahead", value: 8, unit: "day" }],
    [3 * 60 * 60 * 1000, { direction: "behind", value: 3, unit: "hour" }],
    [-42 * 60 * 1000, { direction: "ahead", value: 42, unit: "minute" }],
  ])("an offset of %i ms", (offset, expected) => {
    expect(clockSkew(offset)).toEqual(expected);
  });

  it("says nothing within five minutes, or without an offset", () => {
    expect(clockSkew(5 * 60 * 1000)).toBeUndefined();
    expect(clockSkew(-90_000)).toBeUndefined();
    expect(clockSkew(undefined)).toBeUndefined();
  });
});

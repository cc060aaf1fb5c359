import { describe, expect, it } from "vitest";
import { acceptsGzip } from "./accepts-gzip.ts";

const cases: [string | undefined, boolean][] = [
  ["gzip, deflate, br, zstd", true],
  ["gzip", true],
  ["GZIP", true],
  ["x-gzip", true],
  ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
  ["gzip;q=0", false],
  ["gzip; q=0.000", false],
  ["gzip;q=0, *", false],
  ["*", true],
  ["*;q=0", false],
  ["deflate, br", false],
  ["identity", false],
  ["", false],
  [undefined, false],
];

describe("acceptsGzip", () => {
  it.each(cases)("Accept-Encoding %j allows gzip: %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

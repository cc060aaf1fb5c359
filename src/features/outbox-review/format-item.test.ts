import { describe, expect, it } from "vitest";
import { formatBytes } from "./format-item.ts";

describe("formatBytes", () => {
  it.each([
    [0, "0 KB"],
    [1, "1 KB"],
    [512, "1 KB"],
    [1536, "1.5 KB"],
    [20 * 1024, "20 KB"],
    [2.5 * 1024 * 1024, "2.5 MB"],
    [3 * 1024 ** 3, "3 GB"],
  ])("writes %d bytes as %s, in KB or MB as a coordinator reads them", (bytes, text) => {
    expect(formatBytes(bytes, "en")).toBe(text);
  });

  it("writes the number in the reader's language", () => {
    expect(formatBytes(1536, "es")).toBe("1,5 KB");
  });
});

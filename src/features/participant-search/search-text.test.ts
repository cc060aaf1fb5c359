import { describe, expect, it } from "vitest";
import { canSubmitSearch, normalizeSearchText } from "./search-text.ts";

describe("search submit is disabled while the trimmed text is empty", () => {
  it.each<[string, boolean]>([
    ["", false],
    ["   ", false],
    ["\t\n ", false],
    ["a", true],
    ["  Anderson ", true],
    ["MDD-0001", true],
  ])("%j: can submit %s", (text, allowed) => {
    expect(canSubmitSearch(text)).toBe(allowed);
  });

  it("searches for the trimmed text", () => {
    expect(normalizeSearchText("  Amelia Anderson  ")).toBe("Amelia Anderson");
  });
});

import { describe, expect, it } from "vitest";
import { compareSortValues } from "./sort-values.ts";

describe("table sort values", () => {
  it("orders numbers by value and texts ignoring case, with numbers in texts as numbers", () => {
    expect([10, 2, 33].sort(compareSortValues)).toEqual([2, 10, 33]);
    expect(["b", "A", "c"].sort(compareSortValues)).toEqual(["A", "b", "c"]);
    expect(["P10", "P2"].sort(compareSortValues)).toEqual(["P2", "P10"]);
  });

  it("puts missing values last", () => {
    expect(["b", null, "a", undefined].sort(compareSortValues)).toEqual(["a", "b", null, undefined]);
  });
});

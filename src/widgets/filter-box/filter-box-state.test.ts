import { describe, expect, it } from "vitest";
import {
  filterBoxButtons,
  filterBoxReducer,
  initialFilterBoxState,
  isEmptySelection,
  type FilterBoxState,
} from "./filter-box-state.ts";

type Keys = readonly string[];
const start = initialFilterBoxState<Keys>([]);
const buttons = (state: FilterBoxState<Keys>) => filterBoxButtons(state, isEmptySelection);

describe("filter box", () => {
  it("opens with every button disabled when no filter is applied", () => {
    expect(buttons(start)).toEqual({ apply: false, cancel: false, clear: false });
  });

  it("enables Apply and Cancel once the draft is edited, and Clear only after applying", () => {
    const edited = filterBoxReducer(start, { type: "edit", draft: ["completed"] });
    expect(buttons(edited)).toEqual({ apply: true, cancel: true, clear: false });
    const applied = filterBoxReducer(edited, { type: "apply" });
    expect(applied).toEqual({ applied: ["completed"], draft: ["completed"], edited: false });
    expect(buttons(applied)).toEqual({ apply: false, cancel: false, clear: true });
  });

  it("Cancel puts the draft back to the applied filter", () => {
    const applied = filterBoxReducer(filterBoxReducer(start, { type: "edit", draft: ["declined"] }), {
      type: "apply",
    });
    const edited = filterBoxReducer(applied, { type: "edit", draft: ["declined", "completed"] });
    const cancelled = filterBoxReducer(edited, { type: "cancel" });
    expect(cancelled).toEqual({ applied: ["declined"], draft: ["declined"], edited: false });
  });

  it("Apply without an edit changes nothing", () => {
    const state = initialFilterBoxState<Keys>(["completed"]);
    expect(filterBoxReducer(state, { type: "apply" })).toBe(state);
  });

  it("Clear empties the applied filter and the draft, which disables Clear again", () => {
    const state = initialFilterBoxState<Keys>(["completed"]);
    const cleared = filterBoxReducer(state, { type: "clear", empty: [] });
    expect(cleared).toEqual({ applied: [], draft: [], edited: false });
    expect(buttons(cleared).clear).toBe(false);
  });

  it("reopening drops an unapplied edit", () => {
    const edited = filterBoxReducer(start, { type: "edit", draft: ["completed"] });
    expect(filterBoxReducer(edited, { type: "open" })).toEqual(start);
  });
});

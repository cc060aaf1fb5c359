// @vitest-environment jsdom (the document and its ResizeObserver)
import { afterEach, describe, expect, it, vi } from "vitest";
import { tableOverflows, watchOverflow } from "./overflow-watch.ts";

/** A region of the given inner width holding a table of the given width (jsdom lays nothing out). */
function regionWith(regionWidth: number, tableWidth: number) {
  const region = document.createElement("div");
  const table = document.createElement("table");
  region.append(table);
  Object.defineProperty(region, "clientWidth", { configurable: true, get: () => regionWidth });
  table.getBoundingClientRect = () => ({ width: tableWidth }) as DOMRect;
  return { region, table };
}

afterEach(() => vi.unstubAllGlobals());

describe("tableOverflows", () => {
  it("is false for a table as wide as its region or narrower, a pixel of rounding allowed", () => {
    for (const tableWidth of [720, 720.6, 500]) {
      const { region, table } = regionWith(720, tableWidth);
      expect(tableOverflows(region, table)).toBe(false);
    }
  });

  it("is true for a table wider than its region, and false without a table", () => {
    const { region, table } = regionWith(720, 913);
    expect(tableOverflows(region, table)).toBe(true);
    expect(tableOverflows(region, null)).toBe(false);
  });
});

describe("watchOverflow", () => {
  it("answers at once, again on each resize of the region or its table, and stops when asked", () => {
    let width = 500;
    const { region, table } = regionWith(720, 0);
    table.getBoundingClientRect = () => ({ width }) as DOMRect;
    const observed: Element[] = [];
    let resize = () => undefined as void;
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback: () => void) {
          resize = callback;
        }
        observe(element: Element) {
          observed.push(element);
        }
        disconnect = vi.fn(() => {
          resize = () => undefined;
        });
      },
    );
    const seen: boolean[] = [];
    const stop = watchOverflow(region, (overflows) => seen.push(overflows));
    expect(seen).toEqual([false]);
    expect(observed).toEqual([region, table]);
    width = 900;
    resize();
    expect(seen).toEqual([false, true]);
    stop();
    width = 400;
    resize();
    expect(seen).toEqual([false, true]);
  });

  it("answers once where ResizeObserver does not exist", () => {
    vi.stubGlobal("ResizeObserver", undefined);
    const { region } = regionWith(720, 913);
    const seen: boolean[] = [];
    watchOverflow(region, (overflows) => seen.push(overflows))();
    expect(seen).toEqual([true]);
  });
});

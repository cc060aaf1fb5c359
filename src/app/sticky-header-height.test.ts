// @vitest-environment jsdom (the document and its ResizeObserver)
import { afterEach, expect, it, vi } from "vitest";
import { APP_HEADER_HEIGHT, watchStickyHeaderHeight } from "./sticky-header-height.ts";

afterEach(() => vi.unstubAllGlobals());

it("keeps the header's height in --app-header-height while watched, and removes it after", () => {
  let height = 113.6;
  let resize = () => undefined as void;
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(callback: () => void) {
        resize = callback;
      }
      observe() {}
      disconnect() {
        resize = () => undefined;
      }
    },
  );
  const header = document.createElement("header");
  header.getBoundingClientRect = () => ({ height }) as DOMRect;
  const root = document.createElement("div");
  const stop = watchStickyHeaderHeight(header, root);
  expect(root.style.getPropertyValue(APP_HEADER_HEIGHT)).toBe("114px");
  height = 61;
  resize();
  expect(root.style.getPropertyValue(APP_HEADER_HEIGHT)).toBe("61px");
  stop();
  expect(root.style.getPropertyValue(APP_HEADER_HEIGHT)).toBe("");
});

import { describe, expect, it } from "vitest";
import {
  DEFAULT_WIDTH_PX,
  EDGE_MARGIN_PX,
  MIN_WIDTH_PX,
  applyKeyAction,
  fitToViewport,
  initialRect,
  keepInside,
  keyAction,
  moveBy,
  resizeFromTopLeft,
  type Rect,
} from "./video-container-geometry.ts";

const viewport = { width: 1024, height: 768 };
const phone = { width: 390, height: 844 };
const ASPECT = 16 / 9;
const rect = (x: number, y: number, width: number): Rect => ({ x, y, width, height: width / ASPECT });

describe("initialRect", () => {
  it("starts at the bottom right, DEFAULT_WIDTH_PX wide, with the aspect ratio", () => {
    const start = initialRect(viewport, ASPECT);
    expect(start.width).toBe(DEFAULT_WIDTH_PX);
    expect(start.width / start.height).toBeCloseTo(ASPECT);
    expect(start.x + start.width).toBe(viewport.width - EDGE_MARGIN_PX);
    expect(start.y + start.height).toBe(viewport.height - EDGE_MARGIN_PX);
  });

  it("fits a phone and is never narrower than the minimum", () => {
    expect(initialRect(phone, ASPECT).width).toBe(DEFAULT_WIDTH_PX);
    expect(initialRect({ width: 300, height: 600 }, ASPECT).width).toBe(300 - 2 * EDGE_MARGIN_PX);
    expect(initialRect({ width: 220, height: 600 }, ASPECT).width).toBe(MIN_WIDTH_PX);
  });
});

describe("moveBy", () => {
  it.each([
    { name: "moves freely inside", dx: -100, dy: -50, expected: { x: 400, y: 250 } },
    { name: "stops at the left edge", dx: -900, dy: 0, expected: { x: 0, y: 300 } },
    { name: "stops at the top edge", dx: 0, dy: -900, expected: { x: 500, y: 0 } },
    { name: "stops at the right edge", dx: 900, dy: 0, expected: { x: 1024 - 320, y: 300 } },
    { name: "stops at the bottom edge", dx: 0, dy: 900, expected: { x: 500, y: 768 - 180 } },
  ])("$name", ({ dx, dy, expected }) => {
    const moved = moveBy(rect(500, 300, 320), dx, dy, viewport);
    expect({ x: moved.x, y: moved.y }).toEqual(expected);
    expect(moved.width).toBe(320);
  });
});

describe("resizeFromTopLeft", () => {
  it.each([
    { name: "dragging left grows it", dx: -80, dy: 0, width: 400 },
    { name: "dragging up grows it by the height's share", dx: 0, dy: -45, width: 400 },
    { name: "dragging right shrinks it", dx: 80, dy: 0, width: 240 },
    { name: "never below the minimum width", dx: 500, dy: 500, width: MIN_WIDTH_PX },
    { name: "the larger of the two movements wins", dx: -10, dy: -90, width: 480 },
  ])("$name, with the aspect ratio locked", ({ dx, dy, width }) => {
    const start = rect(500, 300, 320);
    const resized = resizeFromTopLeft(start, dx, dy, viewport, ASPECT);
    expect(resized.width).toBeCloseTo(width);
    expect(resized.width / resized.height).toBeCloseTo(ASPECT);
    // The bottom-right corner stays put.
    expect(resized.x + resized.width).toBeCloseTo(start.x + start.width);
    expect(resized.y + resized.height).toBeCloseTo(start.y + start.height);
  });

  it("cannot grow past the viewport's left edge", () => {
    // The right edge is 420 px from the left, the bottom 280 px from the top (room for 498 px).
    const resized = resizeFromTopLeft(rect(100, 100, 320), -1000, -1000, viewport, ASPECT);
    expect(resized.width).toBeCloseTo(420);
    expect(resized.x).toBeCloseTo(0);
  });

  it("cannot grow past the viewport's top edge", () => {
    // The bottom edge is 180 px from the top: at most 320 px wide, whatever the drag.
    const resized = resizeFromTopLeft(rect(600, 100, 200), -1000, -1000, viewport, ASPECT);
    expect(resized.width).toBeCloseTo((100 + 200 / ASPECT) * ASPECT);
    expect(resized.y).toBeCloseTo(0);
  });
});

describe("fitToViewport", () => {
  it("keeps a container on screen when the viewport shrinks (rotation)", () => {
    const fitted = fitToViewport(rect(800, 500, 600), phone, ASPECT);
    expect(fitted.width).toBe(phone.width);
    expect(fitted.x).toBe(0);
    expect(fitted.y + fitted.height).toBeLessThanOrEqual(phone.height);
  });

  it("keeps the minimum width", () => {
    expect(fitToViewport(rect(0, 0, 120), viewport, ASPECT).width).toBe(MIN_WIDTH_PX);
  });

  it("keepInside leaves a container that fits where it is", () => {
    expect(keepInside(rect(10, 10, 300), viewport)).toEqual(rect(10, 10, 300));
  });
});

describe("keyboard", () => {
  it.each([
    { key: "ArrowLeft", shift: false, alt: false, action: { kind: "move", dx: -10, dy: 0 } },
    { key: "ArrowDown", shift: true, alt: false, action: { kind: "move", dx: 0, dy: 50 } },
    { key: "+", shift: false, alt: false, action: { kind: "resize", dWidth: 10 } },
    { key: "-", shift: true, alt: false, action: { kind: "resize", dWidth: -50 } },
    { key: "ArrowUp", shift: false, alt: true, action: { kind: "resize", dWidth: 10 } },
    { key: "Enter", shift: false, alt: false, action: null },
  ])("$key (shift $shift, alt $alt)", ({ key, shift, alt, action }) => {
    expect(keyAction(key, shift, alt)).toEqual(action);
  });

  it("moves and resizes with the same rules as the pointer", () => {
    const start = rect(500, 300, 320);
    expect(applyKeyAction(start, { kind: "move", dx: 10, dy: 0 }, viewport, ASPECT)).toEqual(
      rect(510, 300, 320),
    );
    const larger = applyKeyAction(start, { kind: "resize", dWidth: 50 }, viewport, ASPECT);
    expect(larger.width).toBeCloseTo(370);
    expect(larger.width / larger.height).toBeCloseTo(ASPECT);
    const smallest = applyKeyAction(rect(500, 300, 205), { kind: "resize", dWidth: -50 }, viewport, ASPECT);
    expect(smallest.width).toBe(MIN_WIDTH_PX);
  });
});

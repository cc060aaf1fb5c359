import { describe, expect, it } from "vitest";
import { METER_COLOUR_AT_0, METER_COLOUR_AT_1, percentColour, percentOf, ratioParts } from "./meter-rules.ts";

const hexOf = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

describe("percent meter", () => {
  it.each([
    { ratio: 0, percent: 0 },
    { ratio: 0.199, percent: 19 },
    { ratio: 0.5, percent: 50 },
    { ratio: 2 / 3, percent: 66 },
    { ratio: 0.999, percent: 99 },
    { ratio: 1, percent: 100 },
    { ratio: 1.5, percent: 100 },
    { ratio: -0.2, percent: 0 },
    { ratio: Number.NaN, percent: 0 },
  ])("shows $percent % for a ratio of $ratio (floor of ratio × 100)", ({ ratio, percent }) => {
    expect(percentOf(ratio)).toBe(percent);
  });

  it("is yellow-orange at 0 and the green tint at 1", () => {
    expect(percentColour(0)).toBe(hexOf(METER_COLOUR_AT_0));
    expect(percentColour(1)).toBe(hexOf(METER_COLOUR_AT_1));
  });

  it("blends the two colours half and half at the midpoint 0.5", () => {
    const half = METER_COLOUR_AT_0.map((from, i) => Math.round((from + METER_COLOUR_AT_1[i]!) / 2));
    expect(percentColour(0.5)).toBe(hexOf(half));
  });

  it("moves steadily from one colour to the other", () => {
    const red = (ratio: number) => parseInt(percentColour(ratio).slice(1, 3), 16);
    expect(red(0.25)).toBeLessThan(red(0));
    expect(red(0.75)).toBeLessThan(red(0.5));
    expect(red(0.75)).toBeGreaterThan(red(1));
  });

  it("takes the nearer end outside 0..1", () => {
    expect(percentColour(-1)).toBe(percentColour(0));
    expect(percentColour(3)).toBe(percentColour(1));
  });
});

describe("ratio meter", () => {
  it("shows 0 % for both parts when the total is 0", () => {
    expect(ratioParts(0, 0)).toEqual({ done: 0, total: 0, donePercent: 0, remainingPercent: 0 });
    expect(ratioParts(3, 0)).toMatchObject({ donePercent: 0, remainingPercent: 0 });
  });

  it("splits the total into done and remaining percents", () => {
    expect(ratioParts(1, 4)).toEqual({ done: 1, total: 4, donePercent: 25, remainingPercent: 75 });
    expect(ratioParts(1, 3)).toMatchObject({ donePercent: 33, remainingPercent: 67 });
    expect(ratioParts(4, 4)).toMatchObject({ donePercent: 100, remainingPercent: 0 });
  });

  it("holds done within 0..total", () => {
    expect(ratioParts(9, 4)).toMatchObject({ done: 4, donePercent: 100 });
    expect(ratioParts(-2, 4)).toMatchObject({ done: 0, donePercent: 0, remainingPercent: 100 });
  });
});

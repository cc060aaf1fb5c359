/**
 * The percent and ratio meters' numbers and colour (spec 02 sections 5 and 9). Plain functions:
 * the components draw them.
 */

/** The percent meter's value: the floor of ratio × 100, held to 0..100 (a non-number is 0). */
export function percentOf(ratio: number): number {
  if (!Number.isFinite(ratio)) return 0;
  return Math.min(100, Math.max(0, Math.floor(ratio * 100)));
}

type Rgb = readonly [number, number, number];

/** The colour at 0: a yellow-orange. */
export const METER_COLOUR_AT_0: Rgb = [0xf2, 0xa1, 0x2c];
/** The colour at 1: a green tint. */
export const METER_COLOUR_AT_1: Rgb = [0x4c, 0xaf, 0x6e];
/** The ratio where the two colours are blended half and half. */
export const METER_COLOUR_MIDPOINT = 0.5;

function hex(value: number) {
  return Math.round(value).toString(16).padStart(2, "0");
}

/**
 * The percent meter's colour for a ratio: a blend from the yellow-orange at 0 to the green tint
 * at 1, half of each at the midpoint (0.5); ratios outside 0..1 take the nearer end.
 */
export function percentColour(ratio: number): string {
  const t = Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 0;
  // Below the midpoint the first half of the blend, above it the second: linear through (0.5, ½).
  const weight =
    t <= METER_COLOUR_MIDPOINT
      ? (t / METER_COLOUR_MIDPOINT) * 0.5
      : 0.5 + ((t - METER_COLOUR_MIDPOINT) / (1 - METER_COLOUR_MIDPOINT)) * 0.5;
  const channels = METER_COLOUR_AT_0.map((from, index) => from + (METER_COLOUR_AT_1[index]! - from) * weight);
  return `#${channels.map(hex).join("")}`;
}

export type RatioParts = { done: number; total: number; donePercent: number; remainingPercent: number };

/**
 * The ratio meter's two parts (done and remaining) as whole percents of the total; both 0 % when
 * the total is 0. Done is held to 0..total.
 */
export function ratioParts(done: number, total: number): RatioParts {
  const safeTotal = Number.isFinite(total) && total > 0 ? Math.floor(total) : 0;
  const safeDone = Number.isFinite(done) ? Math.min(safeTotal, Math.max(0, Math.floor(done))) : 0;
  if (safeTotal === 0) return { done: safeDone, total: 0, donePercent: 0, remainingPercent: 0 };
  const donePercent = percentOf(safeDone / safeTotal);
  return { done: safeDone, total: safeTotal, donePercent, remainingPercent: 100 - donePercent };
}

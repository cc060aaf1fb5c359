/** How the table compares two cells' sort values: numbers by value, texts by the locale. */

export type SortValue = string | number | null | undefined;

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/**
 * Ascending order of two sort values: numbers by value, texts case- and accent-insensitively
 * with numbers inside read as numbers ('P2' before 'P10'); null and undefined after everything.
 */
export function compareSortValues(a: SortValue, b: SortValue): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

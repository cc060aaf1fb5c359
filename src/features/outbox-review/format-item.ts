/**
 * How the review page writes sizes: in KB, MB or GB, the largest unit that keeps the number at
 * or above 1. Its times follow the portal's one rule (src/i18n/format-date.ts).
 */
const BYTES_PER_UNIT = 1024;
/** The units a coordinator reads: never bytes, never a kibibyte. */
const SIZE_UNITS = ["KB", "MB", "GB", "TB"] as const;

/**
 * e.g. 0 → "0 KB", 300 → "1 KB" (anything stored is at least 1 KB), 1536 → "1.5 KB",
 * 20 * 1024 → "20 KB", 2.5 * 1024 ** 2 → "2.5 MB"; the number in the reader's language.
 */
export function formatBytes(bytes: number, locale: string) {
  const size = Math.max(0, bytes);
  let value = size / BYTES_PER_UNIT;
  let unit = 0;
  while (value >= BYTES_PER_UNIT && unit < SIZE_UNITS.length - 1) {
    value /= BYTES_PER_UNIT;
    unit += 1;
  }
  if (size > 0 && value < 1) value = 1;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: value >= 10 ? 0 : 1 }).format(value);
  return `${number} ${SIZE_UNITS[unit]}`;
}

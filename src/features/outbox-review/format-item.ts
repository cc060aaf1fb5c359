/**
 * How the review page writes sizes and times: sizes in the reader's language with the largest
 * unit that keeps the number at or above 1, times in the spec's DD-MMM-YYYY with 24-hour time.
 */
import dayjs from "dayjs";

export const CREATED_AT_FORMAT = "DD-MMM-YYYY HH:mm";
const BYTES_PER_UNIT = 1024;
const SIZE_UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** e.g. 512 → "512 byte", 1536 → "1.5 kB", 3 * 1024 ** 3 → "3 GB" (as Intl writes them in the locale). */
export function formatBytes(bytes: number, locale: string) {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= BYTES_PER_UNIT && unit < SIZE_UNITS.length - 1) {
    value /= BYTES_PER_UNIT;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: SIZE_UNITS[unit],
    unitDisplay: unit === 0 ? "long" : "short",
    maximumFractionDigits: unit === 0 || value >= 10 ? 0 : 1,
  }).format(value);
}

export function formatCreatedAt(at: number) {
  return dayjs(at).format(CREATED_AT_FORMAT);
}

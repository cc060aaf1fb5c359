/**
 * The time picker's formats (spec 02 section 5): 24 h "HH:mm" or 12 h "hh:mm A", never seconds.
 * Plain functions.
 */

export type TimeFormat = "24h" | "12h";
export type TimeOfDay = { hours: number; minutes: number };

export const TIME_PATTERN: Record<TimeFormat, string> = { "24h": "HH:mm", "12h": "hh:mm A" };

const pad = (value: number) => String(value).padStart(2, "0");

/** "14:05" in 24 h, "02:05 PM" in 12 h. */
export function formatTime({ hours, minutes }: TimeOfDay, format: TimeFormat): string {
  if (format === "24h") return `${pad(hours)}:${pad(minutes)}`;
  const half = hours < 12 ? "AM" : "PM";
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${pad(twelve)}:${pad(minutes)} ${half}`;
}

/**
 * The time a text names in the format, or null: 24 h takes H:mm or HH:mm (0-23); 12 h takes
 * h:mm or hh:mm (1-12) and AM or PM (any case, the space optional). Seconds are refused.
 */
export function parseTime(text: string, format: TimeFormat): TimeOfDay | null {
  const trimmed = text.trim();
  if (format === "24h") {
    const match = /^(\d{1,2}):(\d{2})$/.exec(trimmed);
    if (!match) return null;
    const hours = Number(match[1]);
    const minutes = Number(match[2]);
    return hours <= 23 && minutes <= 59 ? { hours, minutes } : null;
  }
  const match = /^(\d{1,2}):(\d{2}) ?([AaPp][Mm])$/.exec(trimmed);
  if (!match) return null;
  const twelve = Number(match[1]);
  const minutes = Number(match[2]);
  if (twelve < 1 || twelve > 12 || minutes > 59) return null;
  const pm = match[3]!.toUpperCase() === "PM";
  return { hours: (twelve % 12) + (pm ? 12 : 0), minutes };
}

/** Whether a locale writes times on a 12-hour clock (en-US yes, es and en-GB no). */
export function localeTimeFormat(locale: string): TimeFormat {
  const cycle = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hourCycle;
  return cycle === "h11" || cycle === "h12" ? "12h" : "24h";
}

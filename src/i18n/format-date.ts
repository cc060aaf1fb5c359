import dayjs from "dayjs";

/** The spec's short date: DD-MMM-YYYY, e.g. 22-Nov-2026. */
export const SHORT_DATE_FORMAT = "DD-MMM-YYYY";
/** The spec's long date: DD-MMMM-YYYY, e.g. 22-November-2026 (the month named in full). */
export const LONG_DATE_FORMAT = "DD-MMMM-YYYY";

export function formatShortDate(value: dayjs.ConfigType) {
  return dayjs(value).format(SHORT_DATE_FORMAT);
}

/** The long date, in the active locale's month names (dayjs.locale, set with the language). */
export function formatLongDate(value: dayjs.ConfigType) {
  return dayjs(value).format(LONG_DATE_FORMAT);
}

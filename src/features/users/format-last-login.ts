import { DATE_TIME_FORMAT, formatDateTime as formatMoment } from "../../i18n/format-date.ts";

/** The last login as DD-MMM-YYYY HH:mm in local time, e.g. 02-Mar-2026 09:05 (src/i18n/format-date.ts). */
export const LAST_LOGIN_FORMAT = DATE_TIME_FORMAT;

export function formatDateTime(value: string) {
  return formatMoment(value);
}

import dayjs from "dayjs";

/** The last login as DD-MMM-YYYY HH:mm in local time, e.g. 02-Mar-2026 09:05. */
export const LAST_LOGIN_FORMAT = "DD-MMM-YYYY HH:mm";

export function formatDateTime(value: string) {
  return dayjs(value).format(LAST_LOGIN_FORMAT);
}

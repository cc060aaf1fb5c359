import dayjs from "dayjs";

/** The spec's short date: DD-MMM-YYYY, e.g. 22-Nov-2026. */
export const SHORT_DATE_FORMAT = "DD-MMM-YYYY";

export function formatShortDate(value: dayjs.ConfigType) {
  return dayjs(value).format(SHORT_DATE_FORMAT);
}

/**
 * Every locale dayjs ships (its ES modules), each a chunk of its own. This map is itself loaded
 * on demand (src/i18n/date-locales.ts), so its 144 entries are not in the app's first download.
 */
export const dayjsLocaleLoaders = import.meta.glob<ILocale>(
  ["/node_modules/dayjs/esm/locale/*.js", "!/node_modules/dayjs/esm/locale/x-pseudo.js"],
  { import: "default" },
);

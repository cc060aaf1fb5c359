/**
 * dayjs's ES locale files (node_modules/dayjs/esm/locale/*.js, loaded on demand by
 * src/i18n/date-locales.ts) import dayjs's ES build ("../index"), a second copy of dayjs beside
 * the app's: this points that import at the app's own dayjs, so a locale's chunk holds only the
 * locale and registers it on the dayjs the app formats with.
 */
import type { Plugin } from "vite";

export function dayjsLocalesOnAppDayjs(): Plugin {
  return {
    name: "clinro:dayjs-locales-on-app-dayjs",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (source !== "../index" || !importer?.replaceAll("\\", "/").includes("/dayjs/esm/locale/"))
        return null;
      return await this.resolve("dayjs", importer, { ...options, skipSelf: true });
    },
  };
}

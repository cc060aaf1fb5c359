/**
 * "Many date locales" (spec 01): dates follow the browser's language for every locale dayjs
 * ships. Each dayjs locale is a chunk of its own, loaded when the language asks for it; which one
 * is chosen is plain functions (tested), loading it is loadDayjsLocale.
 */

/**
 * The locales dayjs ships (node_modules/dayjs/esm/locale, but x-pseudo), by name; a test holds
 * the list to the package's files. Written out so that choosing one needs no download.
 */
// prettier-ignore
export const DAYJS_LOCALES: ReadonlySet<string> = new Set([
  "af", "am", "ar-dz", "ar-iq", "ar-kw", "ar-ly", "ar-ma", "ar-sa", "ar-tn", "ar", "az", "be",
  "bg", "bi", "bm", "bn-bd", "bn", "bo", "br", "bs", "ca", "cs", "cv", "cy", "da", "de-at",
  "de-ch", "de", "dv", "el", "en-au", "en-ca", "en-gb", "en-ie", "en-il", "en-in", "en-nz",
  "en-sg", "en-tt", "en", "eo", "es-do", "es-mx", "es-pr", "es-us", "es", "et", "eu", "fa", "fi",
  "fo", "fr-ca", "fr-ch", "fr", "fy", "ga", "gd", "gl", "gom-latn", "gu", "he", "hi", "hr", "ht",
  "hu", "hy-am", "id", "is", "it-ch", "it", "ja", "jv", "ka", "kk", "km", "kn", "ko", "ku", "ky",
  "lb", "lo", "lt", "lv", "me", "mi", "mk", "ml", "mn", "mr", "ms-my", "ms", "mt", "my", "nb",
  "ne", "nl-be", "nl", "nn", "oc-lnc", "pa-in", "pl", "pt-br", "pt", "rn", "ro", "ru", "rw", "sd",
  "se", "si", "sk", "sl", "sq", "sr-cyrl", "sr", "ss", "sv-fi", "sv", "sw", "ta", "te", "tet",
  "tg", "th", "tk", "tl-ph", "tlh", "tr", "tzl", "tzm-latn", "tzm", "ug-cn", "uk", "ur", "uz-latn",
  "uz", "vi", "yo", "zh-cn", "zh-hk", "zh-tw", "zh",
]);

/**
 * The interface's own languages load their dayjs locale directly, with their catalog; any other
 * through the map of every locale (dayjs-locale-loaders.ts), itself loaded on demand. A locale's
 * default export is its definition, which dayjs.locale(definition) registers on the app's dayjs
 * (vite.config.ts points the locale files' own import of dayjs at the app's).
 */
const INTERFACE_DAYJS_LOCALES: Readonly<Record<string, () => Promise<{ default: ILocale }>>> = {
  es: () => import("dayjs/esm/locale/es.js"),
  fr: () => import("dayjs/esm/locale/fr.js"),
  de: () => import("dayjs/esm/locale/de.js"),
  "pt-br": () => import("dayjs/esm/locale/pt-br.js"),
};

/**
 * The dayjs locale for a language tag: the tag itself (pt-BR is pt-br), then shorter by a subtag
 * at a time (zh-Hant-TW, zh-hant, zh), or null when dayjs has none of them.
 */
export function dayjsLocaleOf(tag: string, known: ReadonlySet<string> = DAYJS_LOCALES): string | null {
  const parts = tag.toLowerCase().replace(/_/g, "-").split("-").filter(Boolean);
  for (let length = parts.length; length > 0; length -= 1) {
    const name = parts.slice(0, length).join("-");
    if (known.has(name)) return name;
  }
  return null;
}

const baseLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0] ?? "";

export type DateLocaleChoice = {
  /** The tag Intl reads typed dates and zone names in (en-GB, ja). */
  tag: string;
  /** The dayjs locale that names the months (en-gb, ja). */
  dayjs: string;
};

/**
 * Which language dates are shown in, for an interface language and the browser's languages
 * (navigator.languages, preferred first):
 * - the browser's first language dayjs ships, with its region (en-GB writes 31/12/2025);
 * - except when the interface was set to another language the interface speaks (a browser in
 *   Spanish, the portal switched to French): then the interface's language, so a page never mixes
 *   two languages it could have shown in one;
 * - English when dayjs has none of them.
 */
export function chooseDateLocale(
  interfaceLocale: string,
  browserLanguages: readonly string[],
  interfaceLanguages: readonly string[],
  known: ReadonlySet<string> = DAYJS_LOCALES,
): DateLocaleChoice {
  const spoken = new Set(interfaceLanguages.map(baseLanguage));
  for (const tag of browserLanguages) {
    const name = dayjsLocaleOf(tag, known);
    if (!name) continue;
    const base = baseLanguage(tag);
    if (base === baseLanguage(interfaceLocale) || !spoken.has(base)) return { tag, dayjs: name };
    break;
  }
  const own = dayjsLocaleOf(interfaceLocale, known);
  return own ? { tag: interfaceLocale, dayjs: own } : { tag: "en-US", dayjs: "en" };
}

/** A dayjs locale's definition, loaded on demand; English is built into dayjs. */
export async function loadDayjsLocale(name: string): Promise<ILocale | null> {
  if (name === "en" || !DAYJS_LOCALES.has(name)) return null;
  const direct = INTERFACE_DAYJS_LOCALES[name];
  if (direct) return (await direct()).default;
  const { dayjsLocaleLoaders } = await import("./dayjs-locale-loaders.ts");
  const load = dayjsLocaleLoaders[`/node_modules/dayjs/esm/locale/${name}.js`];
  return load ? await load() : null;
}

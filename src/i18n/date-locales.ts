/**
 * "Many date locales" (spec 01): dates follow the browser's language for every locale dayjs
 * ships. Each dayjs locale is a chunk of its own, loaded when the language asks for it; which one
 * is chosen is plain functions (tested), loading it is loadDayjsLocale.
 */

/**
 * dayjs's locales (ES modules), by file. Their default export is the locale's definition, which
 * dayjs.locale(definition) registers on the app's own dayjs (these files import dayjs's ES build,
 * a second copy, on which they register too: harmless).
 */
const dayjsLocaleLoaders = import.meta.glob<ILocale>(
  ["/node_modules/dayjs/esm/locale/*.js", "!/node_modules/dayjs/esm/locale/x-pseudo.js"],
  { import: "default" },
);

const DAYJS_LOCALE_FILE = /\/([^/]+)\.js$/;

/** The names of the locales dayjs ships (en, en-gb, fr, pt-br, ja, zh-tw, ...). */
export const DAYJS_LOCALES: ReadonlySet<string> = new Set(
  Object.keys(dayjsLocaleLoaders).map((file) => DAYJS_LOCALE_FILE.exec(file)![1]!),
);

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
  if (name === "en") return null;
  const load = dayjsLocaleLoaders[`/node_modules/dayjs/esm/locale/${name}.js`];
  return load ? await load() : null;
}

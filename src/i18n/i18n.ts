/**
 * The one Lingui instance. English is bundled; other locales load on demand, with the dayjs
 * locale that names the months in the browser's language (src/i18n/date-locales.ts).
 */
import { i18n } from "@lingui/core";
import dayjs from "dayjs";
import { chooseDateLocale, loadDayjsLocale } from "./date-locales.ts";
import { setDateLocale } from "./format-date.ts";
import { messages as englishMessages } from "./locales/en/messages.po";

export const SUPPORTED_LOCALES = ["en", "es", "fr", "de", "pt-BR"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
/** Each interface language by its own name, for a language switcher. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
};
const LOCALE_STORAGE_KEY = "locale";

i18n.load("en", englishMessages);
i18n.activate("en");

/**
 * The interface language for a language tag: the same tag (pt-BR), else the same language in
 * any region (pt-PT and pt are pt-BR, en-GB is en, es-MX is es); null when none speaks it.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const wanted = tag.toLowerCase().replace(/_/g, "-");
  const exact = SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const base = wanted.split("-")[0];
  return SUPPORTED_LOCALES.find((locale) => locale.toLowerCase().split("-")[0] === base) ?? null;
}

export function preferredLocale(): Locale {
  const stored = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
  const candidates = [stored, ...(globalThis.navigator?.languages ?? [])];
  for (const candidate of candidates) {
    const match = matchLocale(candidate);
    if (match) return match;
  }
  return "en";
}

function browserLanguages(): readonly string[] {
  const navigator = globalThis.navigator;
  if (!navigator) return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export async function activateLocale(locale: Locale) {
  const dates = chooseDateLocale(locale, browserLanguages(), SUPPORTED_LOCALES);
  const [catalog, dayjsLocale] = await Promise.all([
    locale === "en" ? null : import(`./locales/${locale}/messages.po`),
    // A locale that does not load leaves the months in English rather than the page unshown.
    loadDayjsLocale(dates.dayjs).catch(() => null),
  ]);
  if (catalog) i18n.load(locale, catalog.messages);
  if (dayjsLocale) {
    dayjs.locale(dayjsLocale);
    setDateLocale(dates.tag);
  } else {
    dayjs.locale("en");
    setDateLocale(dates.dayjs === "en" ? dates.tag : "en-US");
  }
  i18n.activate(locale);
  document.documentElement.lang = locale;
  globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
}

export { i18n };

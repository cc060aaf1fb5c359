/**
 * The one Lingui instance. English is bundled; other locales load on demand.
 */
import { i18n } from "@lingui/core";
import dayjs from "dayjs";
import { messages as englishMessages } from "./locales/en/messages.po";

export const SUPPORTED_LOCALES = ["en", "es"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
const LOCALE_STORAGE_KEY = "locale";
/** dayjs registers a locale on the instance its own module imports: load it by package name. */
const dayjsLocales: Record<Exclude<Locale, "en">, () => Promise<unknown>> = {
  es: () => import("dayjs/locale/es"),
};

i18n.load("en", englishMessages);
i18n.activate("en");

export function preferredLocale(): Locale {
  const stored = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
  const candidates = [stored, ...(globalThis.navigator?.languages ?? [])];
  for (const candidate of candidates) {
    const language = candidate?.slice(0, 2).toLowerCase();
    const match = SUPPORTED_LOCALES.find((locale) => locale === language);
    if (match) return match;
  }
  return "en";
}

export async function activateLocale(locale: Locale) {
  if (locale !== "en") {
    const [{ messages }] = await Promise.all([
      import(`./locales/${locale}/messages.po`),
      dayjsLocales[locale](),
    ]);
    i18n.load(locale, messages);
  }
  dayjs.locale(locale);
  i18n.activate(locale);
  document.documentElement.lang = locale;
  globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
}

export { i18n };

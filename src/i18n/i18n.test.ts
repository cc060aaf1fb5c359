import { describe, expect, it } from "vitest";
import { LOCALE_NAMES, matchLocale, SUPPORTED_LOCALES } from "./i18n.ts";

describe("interface languages", () => {
  it("speaks English, Spanish, French, German and Brazilian Portuguese", () => {
    expect(SUPPORTED_LOCALES).toEqual(["en", "es", "fr", "de", "pt-BR"]);
    expect(LOCALE_NAMES).toEqual({
      en: "English",
      es: "Español",
      fr: "Français",
      de: "Deutsch",
      "pt-BR": "Português (Brasil)",
    });
  });

  it.each([
    ["pt-BR", "pt-BR"],
    ["pt-br", "pt-BR"],
    ["pt_BR", "pt-BR"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["fr-CA", "fr"],
    ["de-AT", "de"],
    ["es-MX", "es"],
    ["en-GB", "en"],
    ["ja-JP", null],
    ["", null],
    [null, null],
  ])("matches %s to %s", (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });
});

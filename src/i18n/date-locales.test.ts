import dayjs from "dayjs";
import { afterEach, describe, expect, it } from "vitest";
import { chooseDateLocale, DAYJS_LOCALES, dayjsLocaleOf, loadDayjsLocale } from "./date-locales.ts";
import { SUPPORTED_LOCALES } from "./i18n.ts";

afterEach(() => {
  dayjs.locale("en");
});

describe("many date locales (spec 01): every locale dayjs ships", () => {
  it("knows dayjs's locales, the interface's among them", () => {
    expect(DAYJS_LOCALES.size).toBeGreaterThan(100);
    for (const name of ["en-gb", "fr", "de", "pt-br", "es", "ja", "zh-tw", "ar"]) {
      expect(DAYJS_LOCALES.has(name)).toBe(true);
    }
  });

  it.each([
    ["pt-BR", "pt-br"],
    ["pt_PT", "pt"],
    ["de-DE", "de"],
    ["de-AT", "de-at"],
    ["zh-Hant-TW", "zh"],
    ["en-US", "en"],
    ["ja", "ja"],
    ["qq-ZZ", null],
  ])("reads %s as dayjs's %s (the tag, then its base language)", (tag, name) => {
    expect(dayjsLocaleOf(tag)).toBe(name);
  });

  it("follows the browser's language, with its region", () => {
    expect(chooseDateLocale("en", ["en-GB", "en"], SUPPORTED_LOCALES)).toEqual({
      tag: "en-GB",
      dayjs: "en-gb",
    });
    expect(chooseDateLocale("pt-BR", ["pt-BR"], SUPPORTED_LOCALES)).toEqual({ tag: "pt-BR", dayjs: "pt-br" });
    // Japanese is not an interface language: the interface is in English, the dates in Japanese.
    expect(chooseDateLocale("en", ["ja-JP", "en"], SUPPORTED_LOCALES)).toEqual({ tag: "ja-JP", dayjs: "ja" });
  });

  it("follows the interface when it was set to another language it speaks", () => {
    expect(chooseDateLocale("fr", ["es-ES"], SUPPORTED_LOCALES)).toEqual({ tag: "fr", dayjs: "fr" });
  });

  it("falls back to the base language, then English", () => {
    expect(chooseDateLocale("en", ["qq-ZZ"], SUPPORTED_LOCALES)).toEqual({ tag: "en", dayjs: "en" });
    expect(chooseDateLocale("en", [], SUPPORTED_LOCALES)).toEqual({ tag: "en", dayjs: "en" });
  });

  it("loads a locale's month names on demand", async () => {
    const french = await loadDayjsLocale("fr");
    expect(french?.name).toBe("fr");
    dayjs.locale(french!);
    expect(dayjs(new Date(2026, 1, 3)).format("DD-MMMM-YYYY")).toBe("03-février-2026");
    expect(await loadDayjsLocale("en")).toBeNull();
    expect(await loadDayjsLocale("qq")).toBeNull();
  });
});

describe("the list of dayjs's locales", () => {
  it("is every locale file of the dayjs package", async () => {
    const { dayjsLocaleLoaders } = await import("./dayjs-locale-loaders.ts");
    const files = Object.keys(dayjsLocaleLoaders).map((file) => /\/([^/]+)\.js$/.exec(file)![1]);
    expect([...DAYJS_LOCALES].sort()).toEqual(files.sort());
  });

  it("loads the interface's languages and any other", async () => {
    for (const name of ["es", "fr", "de", "pt-br", "ja", "zh-tw"])
      expect((await loadDayjsLocale(name))?.name).toBe(name);
  });
});

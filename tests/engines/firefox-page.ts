/**
 * Firefox through its built-in WebDriver BiDi (no geckodriver), with puppeteer-core and Debian's
 * firefox-esr, headless.
 */
import { existsSync } from "node:fs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { EnginePage } from "./engine-page.ts";

export const FIREFOX = "/usr/bin/firefox-esr";

export function firefoxMissing(): string | undefined {
  return existsSync(FIREFOX) ? undefined : `not installed: ${FIREFOX} (Debian: firefox-esr)`;
}

export async function openFirefox(): Promise<EnginePage> {
  const browser: Browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    defaultViewport: { width: 1024, height: 768 },
  });
  const page: Page = await browser.newPage();
  page.setDefaultTimeout(10_000);

  const find = async (xpath: string, timeoutMs?: number) => {
    const element = await page.waitForSelector(`::-p-xpath(${xpath})`, { visible: true, timeout: timeoutMs });
    if (!element) throw new Error(`no ${xpath}`);
    return element;
  };

  return {
    engine: "firefox",
    goto: async (url) => {
      await page.goto(url);
    },
    url: async () => page.url(),
    reload: async () => {
      await page.reload();
    },
    evaluate: async <T>(script: string) => page.evaluate(`(${script})()`) as Promise<T>,
    waitFor: async (xpath, timeoutMs) => {
      await find(xpath, timeoutMs);
    },
    isShown: async (xpath) => {
      const element = await page.$(`::-p-xpath(${xpath})`);
      return element ? element.isVisible() : false;
    },
    // As a person would: the target scrolled to the middle first. Puppeteer only scrolls an element
    // that is off screen, and one on screen under the runner's sticky footer takes the click there.
    click: async (xpath) => {
      const element = await find(xpath);
      await element.evaluate((target) => target.scrollIntoView({ block: "center", behavior: "instant" }));
      await element.click();
    },
    type: async (xpath, text) => {
      const element = await find(xpath);
      await element.click();
      await element.evaluate((input) => {
        if (input instanceof HTMLInputElement) input.value = "";
      });
      await element.type(text);
    },
    draw: async (xpath) => {
      const box = await (await find(xpath)).boundingBox();
      if (!box) throw new Error(`${xpath} is not laid out`);
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width / 2 - 120, y);
      await page.mouse.down();
      for (let step = 1; step <= 8; step++) {
        await page.mouse.move(box.x + box.width / 2 - 120 + step * 25, y + (step % 2 === 0 ? -30 : 30), {
          steps: 3,
        });
      }
      await page.mouse.up();
    },
    close: async () => browser.close(),
  };
}

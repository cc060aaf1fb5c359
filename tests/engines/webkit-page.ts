/**
 * WebKit through Debian's WebKitWebDriver (webkit2gtk-driver), driving WebKitGTK's MiniBrowser
 * under a virtual X display (Xvfb): the engine of every iPad browser, as close as this machine
 * can get to Safari. Every WebDriver session of WebKit uses private (ephemeral) storage, like
 * Safari's Private Browsing: IndexedDB there refuses Blobs, which is why the outbox stores bytes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Builder, By, Origin, until, type WebDriver } from "selenium-webdriver";
import type { EnginePage } from "./engine-page.ts";

export const WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver";
export const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const XVFB = "/usr/bin/Xvfb";

/** What is missing on this machine for WebKit, or undefined when everything is there. */
export function webkitMissing(): string | undefined {
  const missing = [WEBKIT_DRIVER, MINIBROWSER, XVFB].filter((file) => !existsSync(file));
  return missing.length > 0
    ? `not installed: ${missing.join(", ")} (Debian: webkit2gtk-driver, xvfb)`
    : undefined;
}

async function waitForPort(url: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`WebKitWebDriver did not answer at ${url}`);
}

/**
 * Without the back/forward cache. A journey opens each page with a WebDriver navigation, while
 * the page it leaves may be saving to IndexedDB (the query cache saves after every change). In
 * WebKitGTK 2.50 that page is kept suspended in the back/forward cache with its read-write
 * transaction still open, and on Linux nothing aborts it (WebKit bugs 315804 and 324058: the
 * IndexedDB server learns of a suspension from the process throttler, which needs Apple's
 * RunningBoard). Every later transaction on that database then waits forever: measured here,
 * 5 of 7 runs of the journeys hung on the query cache or the outbox after a navigation, and 0 of
 * 3 without the cache. A clinician moves inside the app, which makes no such navigation.
 */
const MINIBROWSER_ARGS = ["--enable-page-cache=false"];

export async function openWebKit(display: number, driverPort: number): Promise<EnginePage> {
  const children: ChildProcess[] = [];
  const xvfb = spawn(XVFB, [`:${display}`, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
    stdio: "ignore",
  });
  children.push(xvfb);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${driverPort}`], {
    env: { ...process.env, DISPLAY: `:${display}` },
    stdio: "ignore",
  });
  children.push(driverProcess);
  const serverUrl = `http://127.0.0.1:${driverPort}`;
  let driver: WebDriver;
  try {
    await waitForPort(serverUrl);
    driver = await new Builder()
      .withCapabilities({
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation", ...MINIBROWSER_ARGS] },
      })
      .usingServer(serverUrl)
      .build();
    await driver.manage().window().setRect({ width: 1024, height: 768 });
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }

  /** A picture of the page when a step fails, named in the error, for the one who reads it. */
  const picture = async () => {
    const file = path.join(tmpdir(), `clinro-webkit-${Date.now()}.png`);
    await writeFile(file, await driver.takeScreenshot(), "base64").catch(() => undefined);
    return file;
  };

  const find = async (xpath: string, timeoutMs = 10_000) => {
    try {
      const element = await driver.wait(until.elementLocated(By.xpath(xpath)), timeoutMs, `no ${xpath}`);
      await driver.wait(until.elementIsVisible(element), timeoutMs, `${xpath} is not shown`);
      return element;
    } catch (error) {
      throw new Error(`${String(error)} (at ${await driver.getCurrentUrl()}; the page: ${await picture()})`);
    }
  };

  return {
    engine: "webkit",
    goto: async (url) => driver.get(url),
    url: async () => driver.getCurrentUrl(),
    reload: async () => driver.navigate().refresh(),
    evaluate: async <T>(script: string) =>
      await driver
        .executeAsyncScript(
          `const done = arguments[arguments.length - 1];
         Promise.resolve((${script})()).then((value) => done({ value }), (error) => done({ error: String(error) }));`,
        )
        .then((outcome) => {
          const { value, error } = outcome as { value?: T; error?: string };
          if (error !== undefined) throw new Error(error);
          return value as T;
        }),
    waitFor: async (xpath, timeoutMs) => {
      await find(xpath, timeoutMs);
    },
    isShown: async (xpath) => {
      const [element] = await driver.findElements(By.xpath(xpath));
      return element ? element.isDisplayed() : false;
    },
    click: async (xpath) => {
      const element = await find(xpath);
      // WebDriver scrolls a control only just into view, where the survey's sticky footer may
      // cover it; a person scrolls it to the middle of the screen first.
      await driver.executeScript('arguments[0].scrollIntoView({ block: "center" })', element);
      try {
        await element.click();
      } catch (error) {
        throw new Error(`WebKit could not click ${xpath}: ${String(error)} (the page: ${await picture()})`);
      }
    },
    type: async (xpath, text) => {
      const element = await find(xpath);
      await element.click();
      await element.clear();
      await element.sendKeys(text);
    },
    draw: async (xpath) => {
      const element = await find(xpath);
      const actions = driver.actions({ async: true });
      actions.move({ origin: element, x: -120, y: 0 }).press();
      for (let step = 1; step <= 8; step++) {
        actions.move({ origin: Origin.POINTER, x: 25, y: step % 2 === 0 ? -30 : 30, duration: 20 });
      }
      await actions.release().perform();
    },
    close: async () => {
      try {
        await driver.quit();
      } finally {
        for (const child of children) child.kill();
      }
    },
  };
}

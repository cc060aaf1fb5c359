/**
 * `npm run screenshots`: every page at tablet (1024x768, 768x1024) and phone (390x844) size, in
 * English and Spanish, into screenshots/. Needs a running portal (BASE_URL, default :8080).
 * For looking at, not a test.
 */
import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";

const BASE_URL = process.env.BASE_URL ?? "http://localhost:8080";
const OUT_DIR = "screenshots";
const SIZES = [
  { name: "tablet-landscape", width: 1024, height: 768 },
  { name: "tablet-portrait", width: 768, height: 1024 },
  { name: "phone", width: 390, height: 844 },
];

async function signIn(page: Page, username: string) {
  await page.goto(`${BASE_URL}/login`);
  await page.locator("#login-username").fill(username);
  await page.locator("#login-password").fill("DemoPass1!");
  await page.locator("button[type=submit]").click();
  await page.waitForURL(/\/studies$/);
}

mkdirSync(OUT_DIR, { recursive: true });
const browser = await chromium.launch({
  executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--no-sandbox"],
});
for (const locale of ["en", "es"]) {
  for (const size of SIZES) {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      locale,
      serviceWorkers: "block",
    });
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: `${OUT_DIR}/${name}-${size.name}-${locale}.png` });
    await page.goto(`${BASE_URL}/login`);
    await page.locator("h1").waitFor();
    await shot("login");
    await page.locator("#login-username").fill("coordinator@demo.test");
    await page.locator("#login-password").fill("wrong");
    await page.locator("button[type=submit]").click();
    await page.locator(".form-error").waitFor();
    await shot("login-error");
    await signIn(page, "coordinator@demo.test");
    await page.locator("table").waitFor();
    await shot("studies");
    await page.locator(".user-menu__button").click();
    await shot("studies-menu");
    await page.goto(`${BASE_URL}/unauthorized`);
    await page.locator("h1").waitFor();
    await shot("unauthorized");
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem("user") ?? "{}");
      localStorage.setItem("user", JSON.stringify({ ...user, is_temporary_password: true }));
    });
    await page.goto(`${BASE_URL}/profile/change-password`);
    await page.locator("#new-password").fill("Clinic7");
    await shot("change-password");
    await context.close();
  }
}
// The instrument route: every step of the kitchen sink (every question type), in English.
for (const size of SIZES) {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    serviceWorkers: "block",
  });
  const page = await context.newPage();
  await signIn(page, "coordinator@demo.test");
  await page.goto(`${BASE_URL}/studies/101/sites/1011/participants/1`);
  await page
    .getByRole("tabpanel")
    .getByRole("button", { name: /^Kitchen sink/ })
    .click();
  await page.locator(".survey__step").waitFor();
  for (let step = 1; step <= 40; step++) {
    // Past the scroll that follows Next, and past lazy question types loading.
    await page.waitForTimeout(700);
    await page.screenshot({
      path: `${OUT_DIR}/instrument-step-${String(step).padStart(2, "0")}-${size.name}.png`,
    });
    const finish = page.getByRole("button", { name: "Finish", exact: true });
    if (await finish.isVisible()) break;
    const next = page.locator(".survey__next");
    if (await next.isDisabled()) {
      const radio = page.getByRole("radio").first();
      if (await radio.isVisible()) await radio.click();
      else await page.locator(".survey__step input").first().fill("30");
    }
    await next.click();
  }
  await page.getByRole("button", { name: "Close the instrument" }).click();
  await page.getByRole("dialog").waitFor();
  await page.screenshot({ path: `${OUT_DIR}/instrument-quit-${size.name}.png` });
  await context.close();
}
await browser.close();
console.log(`Screenshots in ${OUT_DIR}/`);

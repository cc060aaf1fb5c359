/**
 * "Many date locales" (spec 01) in a built app: the interface speaks the
 * browser's language when it has a catalog for it (French here), and dates follow the browser's
 * language for every locale dayjs ships, each loaded on demand (Japanese here, whose interface
 * stays English).
 */
import { signInAs } from "./pages/login-page.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";
import { expect, test } from "./support/test.ts";

test.describe("a browser in Japanese", () => {
  test.use({ locale: "ja-JP" });

  test("shows the interface in English and today's date with Japanese month names", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    const today = await page.evaluate(() => {
      const now = new Date();
      return `${String(now.getDate()).padStart(2, "0")}-${now.getMonth() + 1}月-${now.getFullYear()}`;
    });
    // The header writes it twice: once shown, once for screen readers.
    await expect(page.getByText(today, { exact: true }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
  });
});

test.describe("a browser in Brazilian Portuguese", () => {
  test.use({ locale: "pt-BR" });

  test("shows the interface in Brazilian Portuguese", async ({ page }) => {
    await page.goto("/");
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("pt-BR");
  });
});

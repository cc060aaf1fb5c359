import { expect, test } from "./support/test.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";
import { signInAs, storedUser } from "./pages/login-page.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

test("a device clock eight days ahead signs in, and is told its clock is wrong and by how much", async ({
  page,
}) => {
  // The token lives 12 hours: judged by this clock it was expired before it arrived.
  await page.clock.setSystemTime(Date.now() + 8 * DAY_MS);
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  const notice = page
    .getByRole("status")
    .filter({ hasText: "This device's clock is 8 days ahead of the server's." });
  await expect(notice).toBeVisible();
  const user = await storedUser(page);
  expect(Math.round(Number(user?.clock_offset_ms) / DAY_MS)).toBe(-8);

  // The session holds on this clock: a reload keeps it, and calls go with its token.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await expect(notice).toBeVisible();
  await page.goto("/studies/101/sites/1011/search");
  await expect(page.getByRole("heading", { level: 1, name: "Search participant" })).toBeVisible();
  await expect(notice).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "device-clock", "clock-ahead");
});

test("a right clock is not told anything", async ({ page }) => {
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await expect(page.getByText("This device's clock is")).toHaveCount(0);
});

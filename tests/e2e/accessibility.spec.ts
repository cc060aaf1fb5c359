import { expectNoSeriousViolations } from "./support/axe.ts";
import { expect, test } from "./support/test.ts";
import { signInAs } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

test.describe("every route passes axe with no serious or critical violation", () => {
  test("/login, with and without an error", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByLabel("Username").fill("nobody@demo.test");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("/studies, with the user menu open", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page.getByRole("table")).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: "Carmen Ortiz" }).click();
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("/unauthorized and a page that does not exist", async ({ page }) => {
    await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
    await page.goto("/unauthorized");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("/profile/change-password", async ({ page }) => {
    // The forced-change page renders for any temporary-password session; build one by hand so
    // this test does not spend the demo's only temporary password.
    await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
    await page.evaluate(() => {
      const user = JSON.parse(localStorage.getItem("user") ?? "{}");
      localStorage.setItem("user", JSON.stringify({ ...user, is_temporary_password: true }));
    });
    await page.goto("/profile/change-password");
    await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("weak");
    await expectNoSeriousViolations(page);
  });
});

test("keyboard alone signs in and opens a study", async ({ page }) => {
  await page.goto("/login");
  // Focus starts on the page's heading, so the next Tab reaches the first field.
  await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Username")).toBeFocused();
  await page.keyboard.type(COORDINATOR);
  await page.keyboard.press("Tab");
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/studies$/);
  // Focus moves to the new page's heading.
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeFocused();
});

import { expect, test } from "./support/test.ts";
import { AppShell } from "./pages/app-shell.ts";
import { LoginPage, signInAs, storedUser } from "./pages/login-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { DEMO_PASSWORD, TEMPORARY_PASSWORD_USER } from "./support/demo.ts";

const NEW_PASSWORD = "Clinic Tablet 7!";

test("a temporary password is changed before anything else, then the new one signs in", async ({ page }) => {
  await signInAs(page, TEMPORARY_PASSWORD_USER, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/profile\/change-password$/);
  await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
  // Signing out is offered before the change is made (a tablet handed on); then back in.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await storedUser(page)).toBeNull();
  await signInAs(page, TEMPORARY_PASSWORD_USER, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Create your password" })).toBeVisible();
  // No navigation bar on the change-password page.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);

  // Every other page sends the user back here.
  await page.goto("/studies");
  await expect(page).toHaveURL(/\/profile\/change-password$/);

  const newPassword = page.getByLabel("New password", { exact: true });
  const confirmation = page.getByLabel("Confirm new password");
  const submit = page.getByRole("button", { name: "Change password" });
  const checklist = page.getByRole("list", { name: "Password requirements" });
  const ruleItem = (text: string) => checklist.getByRole("listitem").filter({ hasText: text });
  // After the reload the held password is gone, so the page asks for it.
  await page.getByLabel("Current (temporary) password").fill(DEMO_PASSWORD);

  await newPassword.fill("clinic");
  await expect(ruleItem("One lowercase letter (met)")).toBeVisible();
  await expect(ruleItem("8 characters minimum (not met)")).toBeVisible();
  await expect(ruleItem("One uppercase letter (not met)")).toBeVisible();
  await confirmation.fill("clinic");
  await expect(submit).toBeDisabled();

  await newPassword.fill(NEW_PASSWORD);
  for (const rule of [
    "8 characters minimum",
    "One uppercase letter",
    "One lowercase letter",
    "One number",
    "One special character",
  ]) {
    await expect(ruleItem(`${rule} (met)`)).toBeVisible();
  }
  await confirmation.fill(`${NEW_PASSWORD}x`);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");

  await confirmation.fill(NEW_PASSWORD);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await submit.click();
  // The change ends with a confirmation, focused, and the next step; signing out stays offered.
  const done = page.getByRole("heading", { name: "Your password is set" });
  await expect(done).toBeFocused();
  await expect(page.getByText("Sign in with your new password from now on.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose a study" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "password", "forced-change-done");
  // The profile, where spec 01 section 4 returns, is one choice; now with the navigation bar.
  await page.getByRole("link", { name: "Review your profile" }).click();
  await expect(page).toHaveURL(/\/users\/profile$/);
  await expect(page.getByRole("heading", { name: "Your profile" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(await storedUser(page)).toMatchObject({ is_temporary_password: false });
  await expectNoSeriousViolations(page);

  await new AppShell(page).logout();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEMPORARY_PASSWORD_USER, DEMO_PASSWORD);
  await expect(login.error()).toHaveText("Your username or password is incorrect. Please try again.");
  await login.signIn(TEMPORARY_PASSWORD_USER, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
  await expect(page.getByRole("link", { name: "Boston Clinical Research Center" })).toBeVisible();
});

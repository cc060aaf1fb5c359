import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";
import {
  IdleModal,
  ProfilePage,
  SetPasswordPage,
  UsersPage,
  shortenSessionTiming,
} from "./pages/account-pages.ts";
import { LoginPage, signInAs, storedUser } from "./pages/login-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { COORDINATOR, DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";
import { E2E_DATA_DIR } from "./support/e2e-dirs.ts";

/** Accounts only these tests use (server/seed/demo.ts). */
const ADMIN = "admin@demo.test";
/** Changes its password (to the same demo password): its other sessions end. */
const STAFF1 = "staff1@demo.test";
/** Its password is reset to the demo password again, so signing in as it keeps working. */
const STAFF2 = "staff2@demo.test";
/** Seeded without a password; the server mails its activation link at start. */
const PENDING = "pending@demo.test";
/** The Playwright web server's DATA_DIR (playwright.config.ts). */
const DATA_DIR = E2E_DATA_DIR;
const TIMED_OUT = "Your session has timed out due to inactivity. Please log back in.";

/** The path and query of an emailed link, on the server under test. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

async function signedIn(page: Page, username: string) {
  await signInAs(page, username, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
}

test.describe("profile", () => {
  test("SMS on with a bad phone cannot be saved; a good phone saves and stays after a reload", async ({
    page,
  }) => {
    await signedIn(page, COORDINATOR);
    const profile = new ProfilePage(page);
    await profile.goto();
    await expect(profile.name()).toHaveValue("Carmen Ortiz");
    await expect(profile.email()).toHaveValue(COORDINATOR);
    await expect(profile.email()).not.toBeEditable();
    await expect(profile.smsAlerts()).not.toBeChecked();
    await expect(profile.save()).toBeEnabled();

    await profile.smsAlerts().check();
    // SMS on and no phone yet: Save is disabled.
    await expect(profile.save()).toBeDisabled();
    await profile.country().selectOption("US");
    await profile.phone().fill("12345");
    await profile.phone().blur();
    await expect(profile.phoneError()).toBeVisible();
    await expect(profile.phone()).toHaveAttribute("aria-invalid", "true");
    await expect(profile.save()).toBeDisabled();
    await expectNoSeriousViolations(page);

    await profile.phone().fill("(617) 555-0100");
    await profile.phone().blur();
    await expect(profile.phoneError()).toHaveCount(0);
    await expect(profile.save()).toBeEnabled();
    await profile.save().click();
    await expect(page.getByText("Your profile was updated.")).toBeVisible();
    await expect.poll(async () => (await storedUser(page))?.phone).toBe("+16175550100");
    expect(await storedUser(page)).toMatchObject({ isPhoneEnabled: true, countryDialCode: "+1" });

    await page.reload();
    await expect(profile.heading()).toBeVisible();
    await expect(profile.smsAlerts()).toBeChecked();
    await expect(profile.country()).toHaveValue("US");
    await expect(profile.phone()).toHaveValue("6175550100");

    // An empty name cannot be saved either.
    await profile.name().fill("  ");
    await expect(profile.save()).toBeDisabled();
  });

  test("SMS alerts are not offered when no study of the user has them", async ({ page }) => {
    await signedIn(page, STAFF3);
    await page.getByRole("button", { name: "Farid Haddad" }).click();
    await page.getByRole("link", { name: "Update profile" }).click();
    const profile = new ProfilePage(page);
    await expect(profile.heading()).toBeVisible();
    await expect(profile.name()).toHaveValue("Farid Haddad");
    await expect(profile.smsAlerts()).toHaveCount(0);
    await expectNoSeriousViolations(page);
  });
});

test.describe("user list", () => {
  test("an administrator sees every user, sorts and searches", async ({ page }) => {
    await signedIn(page, ADMIN);
    await page.goto("/users");
    const users = new UsersPage(page);
    await expect(users.heading()).toBeVisible();
    await expect(users.row(COORDINATOR)).toBeVisible();
    await expect(users.row(ADMIN)).toContainText("Administrator");
    await expect(users.row(COORDINATOR)).toContainText("Study manager");
    await expect(users.row(PENDING)).toContainText("Never Logged In");
    await expect(users.row(ADMIN)).toContainText(/\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}/);
    await expect(users.columnHeader("Nickname")).toHaveAttribute("aria-sort", "ascending");
    await expectNoSeriousViolations(page);

    await users.sortBy("Email").click();
    await expect(users.columnHeader("Email")).toHaveAttribute("aria-sort", "ascending");
    await expect(users.columnHeader("Nickname")).toHaveAttribute("aria-sort", "none");
    await expect(users.rows().first()).toContainText(ADMIN);
    await users.sortBy("Email").click();
    await expect(users.columnHeader("Email")).toHaveAttribute("aria-sort", "descending");
    await expect(users.rows().first()).toContainText("witness@demo.test");

    await users.search().fill("STAFF");
    await expect(users.rows()).toHaveCount(3);
    await expect(page.getByText(/^3 of \d+ users shown$/)).toBeVisible();
  });

  test("anyone else goes to /unauthorized", async ({ page }) => {
    await signedIn(page, STAFF3);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/unauthorized$/);
  });
});

test.describe("passwords", () => {
  test("change password: the checklist gates the button, and the new token keeps the session", async ({
    page,
  }) => {
    // Changing a password revokes every session of the account: an account no other test uses.
    await signedIn(page, STAFF1);
    await page.getByRole("button", { name: "Daniel Kim" }).click();
    await page.getByRole("link", { name: "Change my password" }).click();
    await expect(page.getByRole("heading", { name: "Change your password" })).toBeVisible();
    // No navigation bar on this page.
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    const submit = page.getByRole("button", { name: "Change password" });
    await page.getByLabel("Current password").fill("wrong-password");
    await page.getByLabel("New password", { exact: true }).fill("weak");
    await expect(page.getByRole("listitem").filter({ hasText: "8 characters minimum" })).toContainText(
      "(not met)",
    );
    await expect(submit).toBeDisabled();
    await page.getByLabel("New password", { exact: true }).fill(DEMO_PASSWORD);
    await expect(submit).toBeDisabled();
    await page.getByLabel("Confirm new password").fill("DemoPass1?");
    await expect(submit).toBeEnabled();
    await expectNoSeriousViolations(page);
    await submit.click();
    await expect(page.getByRole("alert").filter({ hasText: "Passwords do not match" })).toBeVisible();
    await page.getByLabel("Confirm new password").fill(DEMO_PASSWORD);
    await submit.click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Your current password is incorrect." }),
    ).toBeVisible();
    // The password stays the demo password, so the account keeps working for everyone.
    await page.getByLabel("Current password").fill(DEMO_PASSWORD);
    const before = (await storedUser(page))?.token;
    await submit.click();
    await expect(page).toHaveURL(/\/users\/profile$/);
    await expect(page.getByText("Your password has been changed.")).toBeVisible();
    const after = (await storedUser(page))?.token;
    expect(after).not.toBe(before);
    await page.reload();
    await expect(new ProfilePage(page).heading()).toBeVisible();
  });

  test("activation: follow the mailed link, set a password, sign in with it", async ({ page }) => {
    const [mail] = await mailsTo(DATA_DIR, PENDING);
    expect(mail, "the activation mail of the demo seed").toBeDefined();
    const link = mail!.links.find((candidate) => candidate.includes("/users/activate"));
    expect(link).toBeDefined();
    tokenOfLink(link!);
    await page.goto(pathOf(link!));
    await expect(page.getByRole("heading", { name: "Activate your account" })).toBeVisible();
    await expect(page.getByText(`Choose the password for ${PENDING}.`)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    const form = new SetPasswordPage(page);
    await form.newPassword().fill("Activated1!");
    await expect(form.submit()).toBeDisabled();
    await expectNoSeriousViolations(page);
    await form.setPassword("Activated1!");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText("Your password has been set. Please sign in.")).toBeVisible();
    await new LoginPage(page).signIn(PENDING, "Activated1!");
    await expect(page).toHaveURL(/\/studies$/);

    // The link is used up.
    await page.goto(pathOf(link!));
    await expect(page.getByRole("alert").filter({ hasText: "Unable to authenticate user." })).toBeVisible();
  });

  test("forgot password: the mailed reset link sets a new password", async ({ page }) => {
    const mailsBefore = (await mailsTo(DATA_DIR, STAFF2)).length;
    const login = new LoginPage(page);
    await login.goto();
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await page.getByLabel("Username", { exact: true }).fill(STAFF2);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(
      page.getByText(
        "If an account has this username, we have sent it an email with a link to choose a new password.",
      ),
    ).toBeVisible();
    await expectNoSeriousViolations(page);

    await expect
      .poll(async () => (await mailsTo(DATA_DIR, STAFF2)).length, { timeout: 10_000 })
      .toBe(mailsBefore + 1);
    const mail = (await mailsTo(DATA_DIR, STAFF2)).at(-1)!;
    const link = mail.links.find((candidate) => candidate.includes("/users/reset"))!;
    await page.goto(pathOf(link));
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    // Back to the demo password: other tests may sign in as this account.
    await new SetPasswordPage(page).setPassword(DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/login/);
    await login.signIn(STAFF2, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
  });

  test("forgot username, and an unknown address gets the same neutral answer", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your username?" }).click();
    await page.getByLabel("Email address").fill("nobody@demo.test");
    await page.getByRole("button", { name: "Email my username" }).click();
    await expect(
      page.getByText("If an account has this email address, we have sent it an email with its username."),
    ).toBeVisible();
    await page.getByLabel("Username", { exact: true }).fill("nobody@demo.test");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(
      page.getByText(
        "If an account has this username, we have sent it an email with a link to choose a new password.",
      ),
    ).toBeVisible();
  });

  test("a link with a bad token says so", async ({ page }) => {
    await page.goto("/users/reset?token=not-a-real-token");
    await expect(page.getByRole("alert").filter({ hasText: "Unable to authenticate user." })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});

test.describe("session inactivity", () => {
  test("the inactivity lock counts down, opens with the password, then signs out at zero", async ({
    page,
  }) => {
    // Two real countdowns and two password checks (argon2) take about 25 s of wall clock by
    // design: within the config's 150 s per test.
    await signedIn(page, COORDINATOR);
    // The first lock counts down 30 s: the checks below (axe among them) take several seconds
    // on a busy machine, and the lock must still be open for the password.
    await shortenSessionTiming(page, { timeoutS: 34, warningS: 30 });
    const idle = new IdleModal(page);
    await expect(idle.dialog()).toBeVisible({ timeout: 6_000 });
    await expect(idle.dialog()).toContainText(/Signing out in ([1-9]|[12][0-9]|30) seconds?/);
    // The password field has the focus: typing is what the lock asks for.
    await expect(idle.password()).toBeFocused();
    await expectNoSeriousViolations(page);
    await idle.unlockWith(DEMO_PASSWORD);
    await expect(idle.dialog()).toHaveCount(0);
    expect(await storedUser(page)).not.toBeNull();

    await shortenSessionTiming(page, { timeoutS: 14, warningS: 10 });
    await expect(idle.dialog()).toBeVisible({ timeout: 8_000 });
    await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
    await expect(page.getByText(TIMED_OUT)).toBeVisible();
    expect(await storedUser(page)).toBeNull();
  });

  test("the user may sign out from the inactivity lock", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    await shortenSessionTiming(page, { timeoutS: 30, warningS: 29 });
    const idle = new IdleModal(page);
    await expect(idle.dialog()).toBeVisible({ timeout: 5_000 });
    await idle.signOut().click();
    await expect(page).toHaveURL(/\/login/);
    expect(await storedUser(page)).toBeNull();
  });

  test("a reload after being away longer than the limit signs out", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    // Written as the reloaded page starts, so the page being left cannot notice it first.
    await page.addInitScript(() => {
      const user = JSON.parse(localStorage.getItem("user") ?? "{}");
      localStorage.setItem("user", JSON.stringify({ ...user, last_active: Date.now() - 601_000 }));
    });
    await page.reload();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(TIMED_OUT)).toBeVisible();
    expect(await storedUser(page)).toBeNull();
  });

  test("activity in another tab keeps this tab signed in", async ({ page, context }) => {
    await signedIn(page, COORDINATOR);
    await shortenSessionTiming(page, { timeoutS: 10, warningS: 6 });
    const other = await context.newPage();
    await other.goto("/studies");
    await expect(other.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    // Working in the other tab for longer than this tab's idle time before the modal (4 s).
    for (let second = 0; second < 7; second += 1) {
      await other.keyboard.press("Shift");
      await page.waitForTimeout(1_000);
      await expect(new IdleModal(page).dialog()).toHaveCount(0);
    }
    expect(await storedUser(page)).not.toBeNull();
    // Once nobody works anywhere, both tabs sign out.
    await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
    await expect(other).toHaveURL(/\/login/, { timeout: 15_000 });
  });
});

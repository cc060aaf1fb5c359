/**
 * The remaining small rows of spec 01: editing another user from the users list, the
 * inactivity lock with its password and countdown (on Playwright's clock: ten minutes in
 * milliseconds), and 'Saving instrument failed'.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { IdleModal } from "./pages/account-pages.ts";
import { storedUser } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const ADMIN = "admin@demo.test";
const TARGET = { username: "witness@demo.test", nickname: "Grace Mensah", role: "Enroller" };
const screenshots = (page: Page, name: string) => screenshotAtSizes(page, "rows", name);

function userRow(page: Page, username: string) {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: username, exact: true }) });
}

test.describe("editing another user", () => {
  test("an administrator with the scope 'wu' edits another user from the users list", async ({ page }) => {
    await signedInWithKeptSession(page, ADMIN, DEMO_PASSWORD);
    await page.goto("/users");
    // One's own row leads to the profile; another user's to the edit page.
    await expect(userRow(page, ADMIN).getByRole("link", { name: /Edit your profile/ })).toHaveAttribute(
      "href",
      "/users/profile",
    );
    await expectNoSeriousViolations(page);
    await screenshots(page, "users-list");

    await userRow(page, TARGET.username)
      .getByRole("link", { name: `Edit ${TARGET.nickname}` })
      .click();
    await expect(page).toHaveURL(/\/users\/\d+\/edit$/);
    await expect(page.getByRole("heading", { name: "Edit user" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(TARGET.username);
    const nickname = page.getByLabel("Nickname");
    const role = page.getByLabel("Role");
    const save = page.getByRole("button", { name: "Save" });
    await expect(nickname).toHaveValue(TARGET.nickname);
    await expect(role).toHaveValue("enroller");
    // Nothing changed yet, or an empty nickname: nothing to save.
    await expect(save).toBeDisabled();
    await nickname.fill("   ");
    await expect(save).toBeDisabled();
    await expectNoSeriousViolations(page);
    await screenshots(page, "edit-user");

    await nickname.fill("Grace M. (witness)");
    await role.selectOption("researcher");
    const saved = page.waitForResponse(
      (response) => /\/control\/users\/\d+$/.test(response.url()) && response.request().method() === "PATCH",
    );
    await save.click();
    expect((await saved).status()).toBe(200);
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByText("The user was updated.")).toBeVisible();
    const row = userRow(page, TARGET.username);
    await expect(row.getByRole("cell", { name: "Grace M. (witness)", exact: true })).toBeVisible();
    await expect(row.getByRole("cell", { name: "Researcher", exact: true })).toBeVisible();

    // Put the demo user back as it was, through the same page.
    await row.getByRole("link", { name: "Edit Grace M. (witness)" }).click();
    await page.getByLabel("Nickname").fill(TARGET.nickname);
    await page.getByLabel("Role").selectOption("enroller");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(
      userRow(page, TARGET.username).getByRole("cell", { name: TARGET.role, exact: true }),
    ).toBeVisible();
  });

  test("a user without the scope 'wu' is not offered the edit page", async ({ page }) => {
    await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
    await page.goto("/users/1/edit");
    await expect(page).toHaveURL(/\/unauthorized$/);
  });
});

test.describe("the inactivity lock", () => {
  test("after 9 idle minutes it asks for the password, counting down in seconds; at zero it signs out", async ({
    page,
  }) => {
    await page.clock.install();
    await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
    const lock = new IdleModal(page);

    // The idle time counts from the sign-in's last click, a few real seconds before this line
    // on a loaded machine: 8:45 leaves them room (8:59 left one second and failed in CI).
    await page.clock.fastForward("08:45");
    await expect(lock.dialog()).toHaveCount(0);
    await page.clock.fastForward("00:20");
    await expect(lock.dialog()).toBeVisible();
    await expect(lock.dialog()).toContainText(/Signing out in 5[0-9] seconds/);
    await expect(lock.password()).toBeFocused();
    // Activity does not open the lock: only the password does.
    await page.keyboard.press("Shift");
    await page.mouse.click(5, 5);
    await expect(lock.dialog()).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshots(page, "inactivity-lock");

    await lock.unlockWith("not my password");
    await expect(lock.dialog().getByRole("alert")).toHaveText("The password is incorrect. 4 attempts left.");
    await expect(lock.dialog()).toBeVisible();
    await lock.unlockWith(DEMO_PASSWORD);
    await expect(lock.dialog()).toHaveCount(0);
    expect(await storedUser(page)).not.toBeNull();

    // Idle again: the lock returns, and at zero the session ends. The clock
    // stops at 9:30 idle so a loaded machine's real seconds cannot tick the
    // countdown on while the assertion looks at it.
    const unlockedAt = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(unlockedAt + (9 * 60 + 30) * 1000);
    await expect(lock.dialog()).toBeVisible();
    await expect(lock.dialog()).toContainText(/Signing out in 30 seconds/);
    await page.clock.fastForward("00:31");
    await expect(page).toHaveURL(/\/login/);
    await expect(
      page.getByText("Your session has timed out due to inactivity. Please log back in."),
    ).toBeVisible();
    expect(await storedUser(page)).toBeNull();
  });

  test("five wrong passwords sign out", async ({ page }) => {
    await page.clock.install();
    await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
    const lock = new IdleModal(page);
    await page.clock.fastForward("09:10");
    await expect(lock.dialog()).toBeVisible();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await lock.unlockWith(`wrong ${attempt}`);
      await expect(lock.dialog().getByRole("alert")).toContainText(`${5 - attempt} attempt`);
    }
    await lock.unlockWith("wrong 5");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText("Too many incorrect passwords. Please log back in.")).toBeVisible();
    expect(await storedUser(page)).toBeNull();
  });
});

test("'Saving instrument failed' when the finished instrument cannot be stored on this device", async ({
  page,
}) => {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  // Participant 162: no other test opens its CGI-S (instruments.spec.ts submits 157's).
  await page.goto("/studies/103/sites/1031/participants/162");
  await expect(new ParticipantHome(page).todoTab()).toBeVisible();
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("CGI-S");
  await survey.choose(/^Markedly ill/);
  await survey.next().click();
  await expect(page.getByRole("heading", { name: "Ready to submit" })).toBeVisible();

  // The device's storage refuses the submission (as when it is full).
  await page.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (
        this.transaction.db.name === "clinro-outbox" &&
        (value as { kind?: string }).kind === "submission"
      ) {
        throw new DOMException("The device storage is full.", "QuotaExceededError");
      }
      return put.call(this, value, key);
    };
  });
  await survey.finish().click();
  await expect(page.getByRole("alert").filter({ hasText: "Saving instrument failed" })).toBeVisible();
  // Nothing was queued, the answers stay, and Finish may be pressed again.
  await expect(page.getByRole("heading", { name: "Ready to submit" })).toBeVisible();
  await expect(survey.finish()).toBeEnabled();
  await expect(page.getByRole("link", { name: /waiting to be sent/ })).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshots(page, "saving-instrument-failed");

  // The draft is kept: a reload comes back to the submission step.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Ready to submit" })).toBeVisible();
});

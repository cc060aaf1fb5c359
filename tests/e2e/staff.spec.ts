import { writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { mailsTo } from "../support/mail-drop.ts";
import { SetPasswordPage } from "./pages/account-pages.ts";
import { LoginPage } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { DEMO_PASSWORD } from "./support/demo.ts";
import { E2E_DATA_DIR } from "./support/e2e-dirs.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";

const ADMIN = "admin@demo.test";
const NEW_PASSWORD = "Invited&Ready42";

/** The path and query of an emailed link, on the server under test. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

async function openUsersFromTheMenu(page: Page) {
  await page.locator(".user-menu__button").click();
  await page.getByRole("link", { name: "Users", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
}

async function activationLinkOf(email: string) {
  await expect
    .poll(async () => (await mailsTo(E2E_DATA_DIR, email)).length, { timeout: 10_000 })
    .toBeGreaterThan(0);
  const mail = (await mailsTo(E2E_DATA_DIR, email)).at(-1)!;
  const link = mail.links.find((candidate) => candidate.includes("/users/activate"));
  expect(link, "the invitation's activation link").toBeDefined();
  return link!;
}

test.describe("staff: an administrator invites, changes and deactivates users", () => {
  test("invites a coordinator from /users; the mailed link activates the account and the coordinator sees their study", async ({
    page,
  }) => {
    const email = `coordinator-${Date.now().toString(36)}@site.example`;
    await signedInWithKeptSession(page, ADMIN, DEMO_PASSWORD);
    await openUsersFromTheMenu(page);

    await page.getByRole("link", { name: "Invite user" }).click();
    await expect(page.getByRole("heading", { name: "Invite user" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Carla Ruiz");
    await page.getByLabel("Email (their username)").fill(email);
    await page.getByLabel("Management role").selectOption({ label: "Enroller" });
    await page.getByLabel("Role in MDD-301").selectOption({ label: "Clinical Coordinator" });
    // A role without a site is not sent.
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText("Choose at least one site, or No access.")).toBeVisible();
    await page
      .getByRole("group", { name: "Sites in MDD-301" })
      .getByText("Boston Clinical Research Center")
      .click();
    // Exporting is given explicitly, study by study: unticked until the administrator ticks it.
    const mayExport = page.getByRole("checkbox", { name: "May export the data of these sites" });
    await expect(mayExport).not.toBeChecked();
    await mayExport.check();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "staff", "invite-user");
    await page.getByRole("button", { name: "Send invitation" }).click();

    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByText(`Invitation sent to ${email}. The link works for 7 days.`)).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row.getByText("Invitation sent")).toBeVisible();
    // The management role chosen, and the role in the study in the study staff's words.
    await expect(row.getByRole("cell", { name: "Enroller", exact: true })).toBeVisible();
    await expect(row).toContainText("Clinical Coordinator · MDD-301 Depression Maintenance");
    await screenshotAtSizes(page, "staff", "users-list");

    // The access page: status, roles and sites.
    await row.getByRole("link", { name: "Carla Ruiz", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Access of Carla Ruiz" })).toBeVisible();
    await expect(page.getByLabel("Role in MDD-301")).toHaveValue("16");
    await expect(page.getByRole("checkbox", { name: "May export the data of these sites" })).toBeChecked();
    await expect(page.getByRole("button", { name: "Resend invitation" })).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "staff", "user-access");

    // The invited coordinator follows the mailed link in a browser of their own.
    const link = await activationLinkOf(email);
    const coordinator = await page.context().browser()!.newContext();
    const theirPage = await coordinator.newPage();
    await theirPage.goto(pathOf(link));
    await expect(theirPage.getByRole("heading", { name: "Activate your account" })).toBeVisible();
    await new SetPasswordPage(theirPage).setPassword(NEW_PASSWORD);
    await expect(theirPage).toHaveURL(/\/login/);
    await new LoginPage(theirPage).signIn(email, NEW_PASSWORD);
    await expect(theirPage).toHaveURL(/\/studies$/);
    await expect(theirPage.getByText("MDD-301").first()).toBeVisible();
    await expect(theirPage.getByText("SCZ-214")).toHaveCount(0);

    // Deactivated: the coordinator's next sign-in says why it is refused.
    await page.reload();
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Deactivate" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
    await expect(page.getByText("Deactivated", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Reactivate" })).toBeVisible();

    await theirPage.evaluate(() => localStorage.clear());
    await new LoginPage(theirPage).goto();
    await new LoginPage(theirPage).signIn(email, NEW_PASSWORD);
    await expect(
      theirPage
        .getByRole("alert")
        .filter({ hasText: "This account has been deactivated. Ask your administrator to reactivate it." }),
    ).toBeVisible();
    await coordinator.close();
  });

  test("imports staff from a CSV: a check names every bad row and invites nobody; a correct file is checked, then invited", async ({
    page,
  }) => {
    const folder = await mkdtemp(path.join(tmpdir(), "staff-e2e-"));
    const stamp = Date.now().toString(36);
    const bad = path.join(folder, "bad.csv");
    await writeFile(
      bad,
      `email,name,study_id,role,site_ids\nnot-an-email,Someone,101,11,1011\nok-${stamp}@site.example,,101,99,1031\n`,
    );
    const good = path.join(folder, "staff.csv");
    await writeFile(
      good,
      `email,name,study_id,role,site_ids\nana-${stamp}@site.example,Ana Lopez,101,Clinical Staff Level 1,"1011,1012"\nben-${stamp}@site.example,Ben Ode,103,Impartial Witness,1031\n`,
    );
    await signedInWithKeptSession(page, ADMIN, DEMO_PASSWORD);
    await page.goto("/users");
    await page.getByRole("link", { name: "Import staff (CSV)" }).click();
    await expect(page.getByRole("heading", { name: "Import staff" })).toBeVisible();

    await page.getByLabel("CSV file").setInputFiles(bad);
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(
      page.getByRole("heading", { name: "Nobody was invited: bad.csv needs corrections" }),
    ).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Line 2" })).toContainText("email");
    await expect(page.getByRole("listitem").filter({ hasText: "Line 3" })).toContainText("name");
    await expect(page.getByRole("listitem").filter({ hasText: "Line 3" })).toContainText("role");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "staff", "import-refused");

    await page.getByLabel("CSV file").setInputFiles(good);
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(
      page.getByRole("heading", { name: "The file is correct: 2 users would be invited" }),
    ).toBeVisible();
    expect(await mailsTo(E2E_DATA_DIR, `ana-${stamp}@site.example`)).toHaveLength(0);
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "staff", "import-checked");
    await page.getByRole("button", { name: "Invite 2 users" }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole("row").filter({ hasText: `ben-${stamp}@site.example` })).toContainText(
      "Invitation sent",
    );
    await activationLinkOf(`ana-${stamp}@site.example`);
  });

  test("a clinician has no Users in the menu and is sent away from /users/invite", async ({ page }) => {
    await signedInWithKeptSession(page, "coordinator@demo.test", DEMO_PASSWORD);
    await page.locator(".user-menu__button").click();
    await expect(page.getByRole("link", { name: "Update profile" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
    await page.goto("/users/invite");
    await expect(page).toHaveURL(/\/unauthorized/);
  });
});

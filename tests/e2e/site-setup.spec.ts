/**
 * A site's own portal from an empty database, as its IT person and staff would set it up (site
 * set-up issue): no seed; the first administrator made by `clinro admin create` activates their
 * account from the mail; `clinro study apply docs/example-study.yaml` makes the study; the
 * administrator invites a coordinator from /users, who activates their account, adds a
 * participant and completes a consent and an instrument for them in the browser.
 *
 * On PostgreSQL when TEST_DATABASE_URL is set (CI), a fresh database of its own; elsewhere on
 * the embedded database (the server is stopped around each clinro command there).
 */
import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, type Page } from "@playwright/test";
import { expect, test, watchContentSecurityPolicy, expectNoPolicyViolations } from "./support/test.ts";
import { mailsTo } from "../support/mail-drop.ts";
import { SetPasswordPage } from "./pages/account-pages.ts";
import { ConsentCompletionPage } from "./pages/consent-completion-page.ts";
import { ConsentListPage, ConsentParticipantsPage, storedConsent } from "./pages/consent-pages.ts";
import { LoginPage } from "./pages/login-page.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";

/** docs/example-study.yaml: study 301 at site 3011. */
const [STUDY, SITE] = [301, 3011];
const STUDY_SHORT_NAME = "GAD-118";
const SITE_LABEL = "Riverside Medical Group";
const CONSENT_TITLE = "Main Study Informed Consent";
const CONSENT_PROMPTS = [
  "Welcome to the GAD-118",
  "Purpose of the study",
  "What happens",
  "Risks and benefits",
  "Resumen en español",
];
const DECISION_AGREE = "Yes, I agree to take part / Sí, acepto participar";

const ADMIN = { email: "it.lead@riverside.example", name: "Ines Ortega", password: "Riverside&Admin26" };
const COORDINATOR = {
  email: "coordinator@riverside.example",
  name: "Rafael Moreno",
  password: "Riverside&Coord26",
};

/** The activation link mailed to `email` (the newest), as a path on the server under test. */
async function activationPath(server: PortalServer, email: string) {
  await expect
    .poll(async () => (await mailsTo(server.dataDir, email)).length, { timeout: 15_000 })
    .toBeGreaterThan(0);
  const mail = (await mailsTo(server.dataDir, email)).at(-1)!;
  const link = mail.links.find((candidate) => candidate.includes("/users/activate"));
  expect(link, `the activation link mailed to ${email}`).toBeDefined();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** Follows the mailed activation link, sets the password and signs in. */
async function activateAndSignIn(page: Page, server: PortalServer, person: typeof ADMIN) {
  await page.goto(await activationPath(server, person.email));
  await expect(page.getByRole("heading", { name: "Activate your account" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await new SetPasswordPage(page).setPassword(person.password);
  await expect(page).toHaveURL(/\/login/);
  await new LoginPage(page).signIn(person.email, person.password);
  await expect(page).toHaveURL(/\/studies$/);
}

async function contextOn(browser: Browser, server: PortalServer): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url });
  await watchContentSecurityPolicy(context);
  return context;
}

test.describe("a site's own portal, from an empty database", () => {
  test.describe.configure({ timeout: 300_000 });
  let server: PortalServer;

  test.beforeEach(async ({ browserName: _browser }, testInfo) => {
    server = await createPortalServer(4440 + testInfo.workerIndex, { seed: "none" });
    await server.start();
  });

  test.afterEach(async () => {
    await server.dispose();
  });

  test("first administrator, the example study from its file, an invited coordinator, a participant with a consent and an instrument", async ({
    browser,
  }) => {
    // Nothing seeded: nobody can sign in yet.
    const admin = await contextOn(browser, server);
    const adminPage = await admin.newPage();
    await new LoginPage(adminPage).goto();
    await new LoginPage(adminPage).signIn("admin@demo.test", "DemoPass1!");
    await expect(new LoginPage(adminPage).error()).toBeVisible();

    // 1. The first administrator, from the command the server's log names.
    const created = await server.clinro("admin", "create", "--email", ADMIN.email, "--name", ADMIN.name);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Created administrator ${ADMIN.email}`);
    await activateAndSignIn(adminPage, server, ADMIN);
    // An administrator of a portal without studies yet.
    await expect(adminPage.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();

    // 2. The study, from the documented example file: the plan, then nothing more on a second apply.
    const applied = await server.clinro("study", "apply", "docs/example-study.yaml");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/create study 301/i);
    const again = await server.clinro("study", "apply", "docs/example-study.yaml");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/no changes/i);

    // 3. The administrator invites a coordinator from /users.
    await adminPage.goto("/users");
    await adminPage.getByRole("link", { name: "Invite user" }).click();
    await expect(adminPage.getByRole("heading", { name: "Invite user" })).toBeVisible();
    await adminPage.getByLabel("Name", { exact: true }).fill(COORDINATOR.name);
    await adminPage.getByLabel("Email (their username)").fill(COORDINATOR.email);
    await adminPage.getByLabel(`Role in ${STUDY_SHORT_NAME}`).selectOption({ label: "Clinical Coordinator" });
    await adminPage
      .getByRole("group", { name: `Sites in ${STUDY_SHORT_NAME}` })
      .getByRole("checkbox", { name: SITE_LABEL })
      .check();
    await adminPage.getByRole("button", { name: "Send invitation" }).click();
    await expect(
      adminPage.getByText(`Invitation sent to ${COORDINATOR.email}.`, { exact: false }),
    ).toBeVisible();

    // 4. The coordinator, on a tablet of their own, activates their account and opens the study.
    const coordinator = await contextOn(browser, server);
    const page = await coordinator.newPage();
    await activateAndSignIn(page, server, COORDINATOR);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.getByRole("link", { name: SITE_LABEL }).click();
    // The study asks for consent first: its consents page opens.
    await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/consents$`));

    // 5. A participant added at the site.
    const subjectId = `RIV-${randomUUID().slice(0, 6).toUpperCase()}`;
    await page.goto(`/studies/${STUDY}/sites/${SITE}/search`);
    await page.getByRole("link", { name: "Add participant" }).click();
    await page.getByRole("textbox", { name: "Subject id" }).fill(subjectId);
    await page.getByRole("textbox", { name: "First name" }).fill("Lucia");
    await page.getByRole("textbox", { name: "Last name" }).fill("Fernandez");
    await page.getByLabel("Date of birth").fill("06/21/1979");
    await page.getByRole("radio", { name: "Female" }).check();
    await page.getByRole("button", { name: "Add participant" }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/\\d+$`), {
      timeout: 20_000,
    });
    const participantId = Number(/\/participants\/(\d+)$/.exec(page.url())?.[1]);
    const home = new ParticipantHome(page);
    await expect(home.name("Lucia Fernandez")).toBeVisible();
    // The study asks consent first: her instruments are listed, locked, with the way to the consent.
    await expect(home.panel()).toContainText("Adverse Events Review");
    await expect(
      page.getByRole("heading", { level: 2, name: "Consent needed before any rating" }),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: `Open ${CONSENT_TITLE}` })).toBeVisible();
    await expect(home.row("Adverse Events Review")).toHaveCount(0);
    await expectNoSeriousViolations(page);

    // 6. Their consent, signed in person on the tablet: the participant draws, the coordinator types.
    const list = new ConsentListPage(page);
    await list.goto(STUDY, SITE);
    const href = await list.row(CONSENT_TITLE).getByRole("link").getAttribute("href");
    const consentId = Number(/\/consents\/(\d+)$/.exec(href ?? "")?.[1]);
    const participants = new ConsentParticipantsPage(page);
    await participants.goto(STUDY, SITE, consentId);
    await expect(participants.row(participantId)).toBeVisible();
    const consent = new ConsentCompletionPage(page);
    await consent.goto({ studyId: STUDY, siteId: SITE, consentId, participantId, version: 1 });
    for (const prompt of CONSENT_PROMPTS) await consent.next(prompt);
    await expect(consent.heading("Do you agree to take part")).toBeFocused();
    await consent.survey.choose(DECISION_AGREE);
    await consent.survey.next().click();
    await expect(consent.heading("Participant signature")).toBeFocused();
    await consent.draw();
    await consent.sign().click();
    await expect(consent.manifestation()).toContainText("Participant consent");
    await consent.survey.next().click();
    await consent.next("Statement of the person obtaining consent");
    await expect(consent.heading("Signature of the person obtaining consent")).toBeFocused();
    await consent.mode("Type").click();
    await consent.typedName().fill(COORDINATOR.name);
    await consent.sign().click();
    await consent.confirmPassword(COORDINATOR.password);
    await expect(consent.manifestation()).toContainText(COORDINATOR.name);
    await consent.finishClose().click();
    await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=complete$`), {
      timeout: 20_000,
    });
    const stored = await storedConsent(page, {
      consent_id: consentId,
      consent_version: 1,
      id: participantId,
    });
    expect(stored.status).toBe("complete");

    // 7. An instrument completed for them, now that their consent is complete.
    await page.goto(`/studies/${STUDY}/sites/${SITE}/participants/${participantId}`);
    await expect(home.row("Adverse Events Review")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Consent needed before any rating" })).toHaveCount(0);
    const survey = new SurveyPage(page);
    await survey.openFromParticipantHome("Adverse Events Review");
    await survey.choose(/^No$/);
    await survey.next().click();
    await expect(survey.submissionHeading()).toBeVisible();
    await survey.finish().click();
    await expect(page.getByText("Instrument submitted.")).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(new RegExp(`/participants/${participantId}$`));
    await expectNoSeriousViolations(page);

    // What the server holds: one participant, one consent completed, one submission.
    if (server.onPostgres) {
      expect(await server.count(`select count(*) from participants where subject_id = $1`, [subjectId])).toBe(
        1,
      );
      expect(
        await server.count(
          `select count(*) from consent_participants where participant_id = $1 and status = 'complete'`,
          [participantId],
        ),
      ).toBe(1);
      expect(
        await server.count(`select count(*) from instrument_submissions where participant_id = $1`, [
          participantId,
        ]),
      ).toBe(1);
    }
    expectNoPolicyViolations(admin);
    expectNoPolicyViolations(coordinator);
    await admin.close();
    await coordinator.close();
  });
});

/**
 * Enrolment in the browser (site set-up issue, section 4), against a server of the test's own so
 * that its database can be counted: a coordinator adds a participant online (found by the search,
 * their page shows their to-do), and one offline, whose page opens at once and on which an
 * instrument is completed offline; back online, both reach the server exactly once.
 */
import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { ConsentCompletionPage } from "./pages/consent-completion-page.ts";

/** MDD-301 at its first site: the coordinator (16) administers CGI-S there. */
const [STUDY, SITE] = [101, 1011];
/** The demo seed inserts study 101's participants first: participant 1 is at site 1011. */
const KNOWN_PARTICIPANT = 1;
/**
 * GAD-118 at its one site, which does not ask consent first: a rating made for a participant
 * added offline is taken as soon as they arrive (MDD-301 holds it until their consent is
 * complete, tests/api/consent-first.test.ts). Its first participant (145) is no other spec's.
 */
const [RATING_STUDY, RATING_SITE, RATING_KNOWN_PARTICIPANT] = [103, 1031, 145];

async function signIn(page: Page, server: PortalServer) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Username").fill(COORDINATOR);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
}

/** Fills the Add participant form. */
async function fillParticipant(page: Page, subjectId: string, firstName: string, lastName: string) {
  await page.getByRole("textbox", { name: "Subject id" }).fill(subjectId);
  await page.getByRole("textbox", { name: "First name" }).fill(firstName);
  await page.getByRole("textbox", { name: "Last name" }).fill(lastName);
  // The date input reads the browser's short date (en-US): month/day/year.
  await page.getByLabel("Date of birth").fill("03/09/1984");
  await page.getByRole("radio", { name: "Female" }).check();
}

/** The demo's main consent of MDD-301: its prompts before the decision, and the agreeing choice. */
const MAIN_CONSENT = "Main Study Informed Consent";
const CONSENT_PROMPTS = [
  "Welcome to the MDD-301",
  "Purpose of the study",
  "What happens",
  "Risks and benefits",
  "Resumen en español",
];
const CONSENT_AGREE = "Yes, I agree to take part / Sí, acepto participar";

const participantsWith = (server: PortalServer, subjectId: string) =>
  server.count(`select count(*) as count from participants where subject_id = $1`, [subjectId]);

test.describe("adding participants", () => {
  test.describe.configure({ mode: "serial", timeout: 150_000 });
  let server: PortalServer;

  test.beforeEach(async ({ browserName: _browser }, testInfo) => {
    server = await createPortalServer(4420 + testInfo.workerIndex);
    await server.start();
  });

  test.afterEach(async () => {
    await server.dispose();
  });

  test("a coordinator adds a participant online: found by the search, their page shows their to-do", async ({
    page,
  }) => {
    const subjectId = `E2E-${randomUUID().slice(0, 8)}`;
    await signIn(page, server);
    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/search`);
    await page.getByRole("link", { name: "Add participant" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Add participant" })).toBeVisible();

    // Sent empty: every required field says so, and the first takes the focus.
    await page.getByRole("button", { name: "Add participant" }).click();
    await expect(page.getByRole("textbox", { name: "Subject id" })).toBeFocused();
    await expect(page.getByText("This field is required.")).toHaveCount(4);
    await expect(page.getByRole("textbox", { name: "Subject id" })).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "add-participant-errors");

    await fillParticipant(page, subjectId, "Olivia", "Online");
    await page.getByRole("textbox", { name: "Email (optional)" }).fill("olivia@example.org");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "add-participant");
    await page.getByRole("button", { name: "Add participant" }).click();

    // The outbox sends it at once; the page moves to the participant's real page.
    await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/\\d+$`), {
      timeout: 20_000,
    });
    const home = new ParticipantHome(page);
    await expect(home.name("Olivia Online")).toBeVisible();
    await expect(home.todoTab()).toBeVisible();
    // MDD-301 asks consent first: CGI-S is listed, locked until the main consent is complete.
    await expect(home.panel()).toContainText("CGI-S");
    await expect(
      page.getByRole("heading", { level: 2, name: "Consent needed before any rating" }),
    ).toBeVisible();
    await expect(home.row("CGI-S")).toHaveCount(0);
    await expectNoSeriousViolations(page);

    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/search?q=${subjectId}`);
    const results = page.getByRole("table");
    await expect(results.getByRole("row")).toHaveCount(2);
    await expect(results.getByRole("link", { name: "Online" })).toBeVisible();

    await server.stop();
    expect(await participantsWith(server, subjectId)).toBe(1);
  });

  test("a participant added offline is usable at once, and they and their instrument arrive once back online", async ({
    page,
    context,
  }) => {
    const subjectId = `E2E-OFF-${randomUUID().slice(0, 8)}`;
    await signIn(page, server);
    // Online first: the device learns the study's instruments and keeps CGI-S's definition.
    await page.goto(
      `${server.url}/studies/${RATING_STUDY}/sites/${RATING_SITE}/participants/${RATING_KNOWN_PARTICIPANT}`,
    );
    const home = new ParticipantHome(page);
    await expect(home.todoTab()).toBeVisible();
    const survey = new SurveyPage(page);
    await survey.openFromParticipantHome("CGI-S");
    await survey.close().click();
    await page.getByRole("dialog").getByRole("button", { name: "Quit" }).click();
    await expect(home.todoTab()).toBeVisible();

    await context.setOffline(true);
    // In the app, without a connection: the navigation and the form come from the device.
    await page.getByRole("navigation", { name: "Study" }).getByRole("link", { name: "Participants" }).click();
    await page.getByRole("link", { name: "Add participant" }).click();
    await fillParticipant(page, subjectId, "Frida", "Offline");
    await page.getByRole("button", { name: "Add participant" }).click();

    // The participant's page opens at once, at the id the device gave them.
    await expect(page).toHaveURL(new RegExp(`/participants/-\\d+$`));
    await expect(page.getByRole("heading", { level: 1, name: "Frida Offline" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Not on the server yet" })).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "offline-participant");

    // An instrument completed offline, queued after the participant.
    await page.getByRole("link", { name: "CGI-S" }).click();
    await expect(survey.close()).toBeVisible();
    await survey.choose(/^Markedly ill/);
    await survey.next().click();
    await expect(survey.submissionHeading()).toBeVisible();
    await survey.finish().click();
    const modal = page.getByRole("alertdialog", { name: "Network error" });
    await expect(modal).toBeVisible({ timeout: 15_000 });
    await modal.getByRole("button", { name: "Send later" }).click();
    await expect(page).toHaveURL(new RegExp(`/participants/-\\d+$`));
    const waiting = page.getByRole("region", { name: "Waiting to be sent after the participant" });
    await expect(waiting).toContainText("CGI-S");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "offline-participant-queued");

    // Back online: the participant first, then the instrument; the page moves to the real one.
    await context.setOffline(false);
    await expect(page).toHaveURL(
      new RegExp(`/studies/${RATING_STUDY}/sites/${RATING_SITE}/participants/\\d+$`),
      {
        timeout: 30_000,
      },
    );
    await expect(home.name("Frida Offline")).toBeVisible();
    await expect
      .poll(() => page.evaluate(async () => (await window.clinroOutbox!.list()).length), {
        timeout: 20_000,
      })
      .toBe(0);
    await home.completedTab().click();
    await expect(home.panel()).toContainText("CGI-S");
    // Asking again sends nothing twice.
    await page.evaluate(() => window.clinroOutbox!.flush());

    await server.stop();
    expect(await participantsWith(server, subjectId)).toBe(1);
    expect(
      await server.count(
        `select count(*) as count from instrument_submissions s join participants p on p.id = s.participant_id
         join instruments i on i.id = s.instrument_id where p.subject_id = $1 and i.slug = 'cgi-s'`,
        [subjectId],
      ),
    ).toBe(1);
  });

  test("a consent signed offline for a participant added offline arrives once, after them", async ({
    page,
    context,
  }) => {
    const subjectId = `E2E-OFFC-${randomUUID().slice(0, 8)}`;
    await signIn(page, server);
    // Online: the participant search keeps the site's consents and their blank versions.
    const blankKept = page.waitForResponse(
      (response) => response.url().includes("/control/v2/clinro/consent/blank?") && response.status() === 200,
    );
    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/search`);
    await blankKept;
    await expect(page.getByRole("link", { name: "Add participant" })).toBeVisible();

    await context.setOffline(true);
    await page.getByRole("link", { name: "Add participant" }).click();
    await fillParticipant(page, subjectId, "Carmen", "Consent");
    await page.getByRole("button", { name: "Add participant" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Carmen Consent" })).toBeVisible();

    // The consent is offered on their page, and opens from the device.
    const consents = page.getByRole("region", { name: "Consents" });
    await expect(consents.getByRole("link", { name: MAIN_CONSENT })).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "offline-participant-consents");
    await consents.getByRole("link", { name: MAIN_CONSENT }).click();
    const consent = new ConsentCompletionPage(page);
    await expect(consent.close()).toBeVisible();
    await expect(consent.survey.progressText()).toHaveText("1 of 9");
    for (const prompt of CONSENT_PROMPTS) await consent.next(prompt);
    await consent.survey.choose(CONSENT_AGREE);
    await consent.survey.next().click();
    await expect(consent.heading("Participant signature")).toBeFocused();
    // The participant's printed name is the one entered at enrolment.
    await consent.draw();
    await consent.sign().click();
    await expect(consent.manifestation()).toContainText("Carmen Consent");
    await consent.survey.next().click();
    await consent.next("Statement of the person obtaining consent");
    await expect(consent.heading("Signature of the person obtaining consent")).toBeFocused();
    await consent.mode("Type").click();
    await consent.typedName().fill("Casey Coordinator");
    await consent.sign().click();
    await consent.confirmPassword(DEMO_PASSWORD);
    await expect(consent.manifestation()).toContainText("Consent obtained by");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "offline-participant-consent");
    await consent.finishClose().click();
    const modal = page.getByRole("alertdialog", { name: /^(Network error|Files not uploaded)$/ });
    await expect(modal).toBeVisible({ timeout: 15_000 });
    await modal.getByRole("button", { name: "Send later" }).click();

    // Back on their page: the consent waits behind them and is no longer offered.
    await expect(page).toHaveURL(new RegExp(`/participants/-\\d+$`));
    const waiting = page.getByRole("region", { name: "Waiting to be sent after the participant" });
    await expect(waiting).toContainText(MAIN_CONSENT);
    await expect(consents.getByRole("link", { name: MAIN_CONSENT })).toHaveCount(0);

    await context.setOffline(false);
    await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/\\d+$`), {
      timeout: 30_000,
    });
    await expect
      .poll(() => page.evaluate(async () => (await window.clinroOutbox!.list()).length), {
        timeout: 30_000,
      })
      .toBe(0);
    await page.evaluate(() => window.clinroOutbox!.flush());

    await server.stop();
    expect(await participantsWith(server, subjectId)).toBe(1);
    const ofParticipant = `join participants p on p.id = x.participant_id where p.subject_id = $1`;
    expect(
      await server.count(`select count(*) as count from consent_signings x ${ofParticipant}`, [subjectId]),
    ).toBe(1);
    expect(
      await server.count(`select count(*) as count from consent_signatures x ${ofParticipant}`, [subjectId]),
    ).toBe(2);
    expect(
      await server.count(
        `select count(*) as count from consent_participants x ${ofParticipant} and x.status = 'awaiting_witness'`,
        [subjectId],
      ),
    ).toBe(1);
  });

  test("a participant's details are changed, and a site's CSV is checked, refused row by row, then imported", async ({
    page,
  }) => {
    const run = randomUUID().slice(0, 6).toUpperCase();
    await signIn(page, server);
    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/participants/${KNOWN_PARTICIPANT}`);
    const home = new ParticipantHome(page);
    await expect(home.todoTab()).toBeVisible();
    await page.getByRole("link", { name: "Edit details" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit participant" })).toBeVisible();
    const lastName = page.getByRole("textbox", { name: "Last name" });
    await expect(lastName).not.toHaveValue("");
    await lastName.fill(`Renamed${run}`);
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(new RegExp(`/participants/${KNOWN_PARTICIPANT}$`));
    await expect(page.getByRole("heading", { level: 1, name: new RegExp(`Renamed${run}$`) })).toBeVisible();

    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/search`);
    await page.getByRole("link", { name: "Import participants" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Import participants" })).toBeVisible();
    const text = page.getByRole("textbox", { name: "The file's text (you can also paste it here)" });
    const header = "subject_id,first_name,last_name,date_of_birth,gender,email";
    await text.fill(
      [header, `CSV-${run}-1,Ana,Lopez,1990-01-02,f,`, `CSV-${run}-2,Bo,Chen,2090-11-30,x,`].join("\n"),
    );
    await page.getByRole("button", { name: "Check the file" }).click();
    const refused = page.getByRole("region", { name: "1 row is not right: nothing was added" });
    await expect(refused).toContainText("Line 3");
    await expect(refused).toContainText("gender");
    await expect(refused).toContainText("date_of_birth");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "import-refused");

    await text.fill(
      [
        header,
        `CSV-${run}-1,Ana,Lopez,1990-01-02,f,`,
        `CSV-${run}-2,Bo,Chen,1975-11-30,m,bo@example.org`,
      ].join("\n"),
    );
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(
      page.getByRole("heading", { name: "The file is right: 2 participants would be added" }),
    ).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "import-preview");
    await page.getByRole("button", { name: "Import 2 participants" }).click();
    await expect(page.getByRole("heading", { name: "2 participants added" })).toBeVisible();

    await server.stop();
    expect(
      await server.count(`select count(*) as count from participants where subject_id like $1`, [
        `CSV-${run}-%`,
      ]),
    ).toBe(2);
  });

  test("an enrolment the server refuses (subject id taken) is shown, kept, and corrected from the queue", async ({
    page,
  }) => {
    const corrected = `E2E-FIX-${randomUUID().slice(0, 8)}`;
    await signIn(page, server);
    await page.goto(`${server.url}/studies/${STUDY}/sites/${SITE}/participants/new`);
    // MDD-1001 is the demo's participant 1: taken in the study.
    await fillParticipant(page, "MDD-1001", "Tomás", "Taken");
    await page.getByRole("button", { name: "Add participant" }).click();
    await expect(
      page.getByRole("heading", { level: 2, name: "The server refused this participant" }),
    ).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByRole("alert").filter({ hasText: "already used in this study" })).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "enrolment", "enrolment-refused");

    // Kept in the queue, refused, with a way back to correct it.
    await page.goto(`${server.url}/outbox`);
    await page.getByRole("link", { name: /^Correct: MDD-1001 Tomás Taken/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tomás Taken" })).toBeVisible();
    await page.getByRole("textbox", { name: "Subject id" }).fill(corrected);
    await page.getByRole("button", { name: "Correct and send again" }).click();
    await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/\\d+$`), {
      timeout: 20_000,
    });
    await expect(new ParticipantHome(page).name("Tomás Taken")).toBeVisible();

    await server.stop();
    expect(await participantsWith(server, corrected)).toBe(1);
    expect(await participantsWith(server, "MDD-1001")).toBe(1);
  });
});

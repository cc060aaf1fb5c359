import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome, SearchPage, StudyNav } from "./pages/participant-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const STAFF1 = "staff1@demo.test";
const WITNESS = "witness@demo.test";
const STAFF3 = "staff3@demo.test";

async function signedIn(page: Page, username: string) {
  await signedInWithKeptSession(page, username, DEMO_PASSWORD);
}

/** Searches Boston (study 101, forms list) for Yuki Rossi, MDD-1001, and opens her. */
async function openYukiRossi(page: Page) {
  const search = new SearchPage(page);
  await search.goto(101, 1011);
  await search.search("MDD-1001");
  await expect(search.countHeading()).toHaveText("1 participant found");
  await search.results().getByRole("link", { name: "Rossi" }).click();
  const home = new ParticipantHome(page);
  await expect(home.name("Yuki Rossi")).toBeVisible();
  return home;
}

test("choose a study, search, open a participant and see both tabs with rows", async ({ page }) => {
  await signedIn(page, COORDINATOR);
  // Study 101 requires consent: choosing it goes to its consent list.
  await page.getByRole("link", { name: "Boston Clinical Research Center" }).click();
  await expect(page).toHaveURL(/\/studies\/101\/sites\/1011\/consents$/);
  const nav = new StudyNav(page);
  await expect(nav.region()).toContainText("Boston Clinical Research Center");
  await expect(nav.region()).toContainText("MDD-301 Depression Maintenance");
  await expect(nav.tab("Consents")).toHaveAttribute("aria-current", "page");
  await expect(nav.tab("Virtual visits")).toHaveCount(0);
  // The study's greeting to its clinicians (config.clinro.greeting) under the heading.
  await expect(page.getByText("Welcome to MDD-301", { exact: true })).toBeVisible();
  await nav.tab("Participants").click();

  const search = new SearchPage(page);
  await expect(search.heading()).toBeVisible();
  await expect(page.getByText("Welcome to MDD-301", { exact: true })).toBeVisible();
  await screenshotAtSizes(page, "participants", "search-with-greeting");
  await expect(search.submit()).toBeDisabled();
  await search.box().fill("   ");
  await expect(search.submit()).toBeDisabled();
  await search.search("Rossi");
  await expect(page).toHaveURL(/\/search\?q=Rossi$/);
  await expect(search.countHeading()).toHaveText(/participants? found$/);
  const row = search.results().getByRole("row").filter({ hasText: "MDD-1001" });
  await expect(row).toContainText("Yuki");
  await expect(row).toContainText("20-May-1983");
  // A click anywhere on the row opens the participant.
  await row.click();

  const home = new ParticipantHome(page);
  await expect(home.name("Yuki Rossi")).toBeVisible();
  await expect(page.getByText("MDD-1001")).toBeVisible();
  await expect(page.getByText("20-May-1983")).toBeVisible();
  await expect(nav.backLink("Search participant")).toBeVisible();
  await expect(home.todoTab()).toHaveAttribute("aria-selected", "true");
  await expect(home.row("HAM-D 17")).toBeVisible();
  await expect(home.row("Adverse Events Review")).toBeVisible();
  await home.completedTab().click();
  await expect(home.completedTab()).toHaveAttribute("aria-selected", "true");
  await expect(home.panel()).toContainText(/HAM-D 17\s*Completed at \d\d:\d\d by /);
  await expect(home.panel().getByText("Expired")).toBeVisible();
  // The completed rows sit under day headings.
  await expect(home.panel().getByRole("heading", { level: 2 }).first()).toHaveText(
    /^\d\d-[A-Z][a-z]{2}-\d{4}$/,
  );
  // Arrow keys move between the tabs.
  await home.completedTab().press("ArrowLeft");
  await expect(home.todoTab()).toBeFocused();
  await expect(home.todoTab()).toHaveAttribute("aria-selected", "true");

  // Back returns to the search with its results; the box shows the search again.
  await page.goBack();
  await expect(search.box()).toHaveValue("Rossi");
  await expect(search.results()).toBeVisible();
});

test("a search without result says 'No matches found'; Enter on a row link opens the participant", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const search = new SearchPage(page);
  await search.goto(101, 1011);
  await search.search("zzqx-nobody");
  await expect(page.getByText("No matches found")).toBeVisible();
  await search.box().fill("MDD-1001");
  await search.box().press("Enter");
  await expect(search.countHeading()).toHaveText("1 participant found");
  await search.results().getByRole("link", { name: "Rossi" }).focus();
  await page.keyboard.press("Enter");
  await expect(new ParticipantHome(page).name("Yuki Rossi")).toBeVisible();
});

test("the newer architecture lists instances and sends delivered events through the outbox", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const eventBodies: unknown[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/control/participants/me/events")) eventBodies.push(request.postDataJSON());
  });
  await page.getByRole("link", { name: "Remote Visits Hub" }).click();
  await expect(page).toHaveURL(/\/studies\/102\/sites\/1021\/search$/);
  const nav = new StudyNav(page);
  await expect(nav.tab("Virtual visits")).toBeVisible();
  await expect(nav.tab("Consents")).toHaveCount(0);
  const search = new SearchPage(page);
  await search.search("SCZ-1001");
  await search.results().getByRole("link", { name: "Yilmaz" }).click();
  const home = new ParticipantHome(page);
  await expect(home.name("Samuel Yilmaz")).toBeVisible();
  await expect(home.row("HAM-D 17")).toBeVisible();
  await expect(home.row("CGI-S")).toBeVisible();
  await expect.poll(() => eventBodies.flat().length).toBeGreaterThanOrEqual(3);
  const events = eventBodies.flat() as { type: string; participant: number; study_id: number }[];
  expect(events.every((event) => event.study_id === 102 && event.participant > 0)).toBe(true);
  expect(events.filter((event) => event.type === "delivered").length).toBeGreaterThanOrEqual(3);
  // Once per instance per visit: another render (a tab switch) sends nothing more.
  const sent = eventBodies.length;
  await home.completedTab().click();
  await home.todoTab().click();
  await page.waitForTimeout(500);
  expect(eventBodies.length).toBe(sent);
});

test("the Consents tab shows its missing-consents dot in study 101, and no Consents tab in study 102", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const consentCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/control/v2/clinro/me/consents")) consentCalls.push(request.url());
  });
  await page.getByRole("link", { name: "Boston Clinical Research Center" }).click();
  const nav = new StudyNav(page);
  // The demo seed leaves consents of study 101 missing: the dot and its accessible text show.
  await expect(nav.tab("Consents")).toHaveAccessibleName("Consents (consents missing)");
  await expect(nav.consentsDot()).toBeVisible();
  expect(consentCalls.some((url) => url.includes("study_id=101"))).toBe(true);

  await page.goto("/studies");
  await page.getByRole("link", { name: "Remote Visits Hub" }).click();
  await expect(page).toHaveURL(/\/studies\/102\/sites\/1021\/search$/);
  await expect(nav.tab("Participants")).toBeVisible();
  await expect(nav.tab("Consents")).toHaveCount(0);
  await expect(nav.region().getByText("(consents missing)")).toHaveCount(0);
  // Study 102 has no newConsentEnabled: its consents are never asked for.
  expect(consentCalls.some((url) => url.includes("study_id=102"))).toBe(false);
});

test("a witness sees no Participants tab", async ({ page }) => {
  await signedIn(page, WITNESS);
  await page.getByRole("link", { name: "Boston Clinical Research Center" }).click();
  const nav = new StudyNav(page);
  await expect(nav.tab("Consents")).toBeVisible();
  await expect(nav.tab("Participants")).toHaveCount(0);
  await expect(nav.tab("Virtual visits")).toHaveCount(0);
  await expect(nav.backLink("All studies")).toBeVisible();
});

test("a form staff1 may not administer shows a lock; signing in as a coordinator in the modal opens it", async ({
  page,
}) => {
  await signedIn(page, STAFF1);
  const home = await openYukiRossi(page);
  const locked = home.row("CGI-S");
  await expect(locked).toHaveAccessibleName(/CGI-S\s*\(locked/);
  await expect(home.row("HAM-D 17")).not.toHaveAccessibleName(/locked/);
  await locked.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("It looks like you don't have permission to administer CGI-S");
  await expect(dialog.getByRole("button", { name: "Return to participant" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Back to studies" })).toBeVisible();
  await dialog.getByLabel("Username").fill(STAFF1);
  await dialog.getByLabel("Password").fill("wrong-password");
  await dialog.getByRole("button", { name: "Log in" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Your username or password is incorrect. Please try again.",
  );
  await dialog.getByLabel("Password").fill(DEMO_PASSWORD);
  await dialog.getByRole("button", { name: "Log in" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/doesn't have permission to administer CGI-S either/);
  await dialog.getByLabel("Username").fill(COORDINATOR);
  await dialog.getByLabel("Password").fill(DEMO_PASSWORD);
  await dialog.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(
    /\/studies\/101\/sites\/1011\/participants\/\d+\/instruments\/\d+\/cgi-s\?instance_id=\d+$/,
  );
  await expect(
    page.getByRole("heading", { level: 1, name: "Clinical Global Impression - Severity" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Carmen Ortiz" })).toBeVisible();
});

test("a participant the user may not read shows the access-denied panel, without signing out", async ({
  page,
}) => {
  await signedIn(page, STAFF3);
  // Staff3 works in studies 101 and 103. Participant 73 is the first of study 102 (the seed makes
  // 72 per study, in order), asked for under a site of study 101: the server answers 403.
  await page.goto("/studies/101/sites/1011/participants/73");
  await expect(
    page.getByRole("heading", { name: "it looks like you don't have access to this participant" }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to studies" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole("link", { name: "Back to studies" }).click();
  await expect(page).toHaveURL(/\/studies$/);
});

test.describe("axe: no serious or critical violation", () => {
  test("the search page, with results", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    const search = new SearchPage(page);
    await search.goto(101, 1011);
    await expectNoSeriousViolations(page);
    await search.search("an");
    await expect(search.results()).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("the participant page, both tabs and the locked-form modal", async ({ page }) => {
    await signedIn(page, STAFF1);
    const home = await openYukiRossi(page);
    await expect(home.row("HAM-D 17")).toBeVisible();
    await expectNoSeriousViolations(page);
    await home.completedTab().click();
    await expectNoSeriousViolations(page);
    await home.todoTab().click();
    await home.row("CGI-S").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});

test.describe("a participant's page opened by its address", () => {
  // Every request is the page's own: none is answered from the worker's cache.
  test.use({ serviceWorkers: "block" });

  test("asks for its own code before the app's code has arrived", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    await page.goto("/studies/101/sites/1011/participants/1");
    const home = new ParticipantHome(page);
    await expect(home.todoTab()).toBeVisible();

    const pageChunk = /\/assets\/participant-home-page-[^/]+\.js$/;
    const pageChunkRequested = page.waitForRequest(pageChunk);
    // The app's entry is held until the page's chunk has been asked for: only the early start
    // in index.html, which does not wait for the app, can ask for it.
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await pageChunkRequested;
      await route.continue();
    });
    await page.reload();
    await expect(home.todoTab()).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("is not asked for without a session: the sign-in page loads only the app", async ({ page }) => {
    const pageChunks: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/participant-home-page-/.test(request.url())) pageChunks.push(request.url());
    });
    await page.goto("/studies/101/sites/1011/participants/1");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    expect(pageChunks).toEqual([]);
  });
});

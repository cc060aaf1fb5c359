import type { Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { COORDINATOR, DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";
import { expect, test } from "./support/test.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { InboxPage, WriteAnnouncementPage } from "./pages/inbox-pages.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";

// Each test signs in as a demo account no other test of this file changes (read state,
// onboarding), so they may run side by side; the coordinator writes only to GAD-118, which
// staff2 and staff1 do not receive.
const STAFF1 = "staff1@demo.test";
const STAFF2 = "staff2@demo.test";
const WITNESS = "witness@demo.test";

const screenshots = (page: Page, name: string) => screenshotAtSizes(page, "inbox", name, { fullPage: false });

async function signedIn(page: Page, username: string) {
  await signedInWithKeptSession(page, username, DEMO_PASSWORD);
}

/** Waits for the outbox to deliver a read event to the server. */
const readEventSent = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.url().includes("/control/participants/me/events") &&
      response.request().method() === "POST" &&
      response.status() === 200,
  );

test("unread announcements carry a dot; opening one marks it read, and the nav dot clears with the last", async ({
  page,
}) => {
  await signedIn(page, STAFF2);
  const inbox = new InboxPage(page);
  await expect(inbox.navDot()).toBeVisible();
  await inbox.navLink().click();
  await expect(inbox.heading()).toBeVisible();
  // Newest first; the older demo announcements are read, the three newest of staff2's are not.
  await expect(inbox.items().first()).toContainText("Protocol amendment 3 is approved");
  await expect(inbox.unreadToggles()).toHaveCount(3);
  await expect(inbox.item("Welcome to MDD-301").getByTestId("unread-dot")).toHaveCount(0);
  await expect(inbox.item("Protocol amendment 3 is approved").getByTestId("unread-dot")).toBeVisible();

  // Opening shows the sanitised HTML and clears the dot at once; the event reaches the server.
  const sent = readEventSent(page);
  const amendment = inbox.toggle("Protocol amendment 3 is approved");
  await amendment.click();
  await expect(amendment).toHaveAttribute("aria-expanded", "true");
  await expect(inbox.item("Protocol amendment 3 is approved").locator("blockquote")).toContainText(
    "The CGI-S is now completed at every visit",
  );
  await expect(inbox.item("Protocol amendment 3 is approved").getByTestId("unread-dot")).toHaveCount(0);
  await expect(inbox.unreadToggles()).toHaveCount(2);
  await sent;
  await expect(inbox.navDot()).toBeVisible();

  // A link in an announcement opens in a new tab without an opener.
  await inbox.toggle("HAM-D 17 rater refresher").click();
  const mail = inbox.item("HAM-D 17 rater refresher").getByRole("link", { name: "study-team@example.org" });
  await expect(mail).toHaveAttribute("target", "_blank");
  await expect(mail).toHaveAttribute("rel", "noopener noreferrer");
  await expect(inbox.unreadToggles()).toHaveCount(1);

  const lastSent = readEventSent(page);
  await inbox.toggle("Remote visits: check your camera").click();
  await expect(inbox.unreadToggles()).toHaveCount(0);
  await expect(inbox.navDot()).toHaveCount(0);
  await lastSent;

  // Read on the server: after a reload nothing is unread, and the nav shows no dot.
  await page.reload();
  await expect(inbox.items().first()).toBeVisible();
  await expect(inbox.unreadToggles()).toHaveCount(0);
  await expect(inbox.navDot()).toHaveCount(0);
});

test.describe("with no announcements", () => {
  // Answered here, from the first request on (the list is cached and persisted once fetched).
  test.use({ serviceWorkers: "block" });

  test("the empty state shows two messages and the mascot", async ({ page }) => {
    await page.route("**/control/participants/me/announcements", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ announcements: [] }),
      }),
    );
    await signedIn(page, WITNESS);
    const inbox = new InboxPage(page);
    await inbox.goto();
    await expect(page.getByText("You're all caught up")).toBeVisible();
    await expect(page.getByText("There are no announcements yet.")).toBeVisible();
    await expect(page.locator("img.inbox__mascot")).toBeVisible();
    await expect(page.locator("img.inbox__mascot")).toHaveAttribute("alt", "");
    await expect(inbox.navDot()).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await screenshots(page, "inbox-empty");
  });
});

test("the onboarding cards show until dismissed, once per user, across sign-ins", async ({ page }) => {
  await signedIn(page, STAFF3);
  const activities = page.getByRole("region", { name: "Your activities start here" });
  await expect(activities).toBeVisible();
  await activities.getByRole("button", { name: "Got it" }).click();
  await expect(activities).toHaveCount(0);

  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.onboardingCard()).toBeVisible();
  const dismissed = page.waitForResponse(
    (response) => response.url().includes("/onboarding/announcements") && response.status() === 200,
  );
  await inbox.onboardingCard().getByRole("button", { name: "Got it" }).click();
  await expect(inbox.onboardingCard()).toHaveCount(0);
  await dismissed;

  // Kept on the server: a fresh sign-in on a new device shows neither card again.
  await page.context().clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await signedIn(page, STAFF3);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await expect(activities).toHaveCount(0);
  await inbox.goto();
  await expect(inbox.items().first()).toBeVisible();
  await expect(inbox.onboardingCard()).toHaveCount(0);
});

test("a coordinator writes an announcement, and the study's staff find it unread", async ({
  page,
  browser,
}) => {
  const title = `Clinic closed on Friday ${Date.now()}`;
  await signedIn(page, COORDINATOR);
  const inbox = new InboxPage(page);
  await inbox.goto();
  await inbox.writeLink().click();
  const form = new WriteAnnouncementPage(page);
  await expect(form.heading()).toBeVisible();
  await expect(form.message()).toBeVisible();
  await expectNoSeriousViolations(page);

  // Nothing is sent without a title and a text.
  await form.send().click();
  await expect(page.getByText("Give the announcement a title.")).toBeVisible();
  await expect(form.title()).toHaveAttribute("aria-invalid", "true");

  await form.title().fill(title);
  await form.study().selectOption({ label: "GAD-118 Anxiety Open-Label" });
  await expect(form.sites().locator("option")).toHaveText([
    "All sites of the study",
    "Riverside Medical Group",
  ]);
  await form.message().click();
  await page.keyboard.type("The clinic is closed on Friday. Visits move to Monday.");
  await screenshots(page, "write-announcement");
  await form.send().click();
  await expect(inbox.heading()).toBeVisible();
  await expect(page).toHaveURL(/\/inbox$/);
  // The toast names what was sent and to whom.
  await expect(
    page.getByText(`Announcement “${title}” sent to the staff of every site of GAD-118 Anxiety Open-Label.`),
  ).toBeVisible();
  await expect(inbox.items().first()).toContainText(title);
  // The author has read their own.
  await expect(inbox.item(title).getByTestId("unread-dot")).toHaveCount(0);

  const staffContext = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const staff = await staffContext.newPage();
  await signedIn(staff, STAFF3);
  const staffInbox = new InboxPage(staff);
  await staffInbox.goto();
  await expect(staffInbox.items().first()).toContainText(title);
  await expect(staffInbox.items().first()).toContainText("Carmen Ortiz");
  await expect(staffInbox.item(title).getByTestId("unread-dot")).toBeVisible();
  await staffInbox.toggle(title).click();
  await expect(staffInbox.item(title)).toContainText(
    "The clinic is closed on Friday. Visits move to Monday.",
  );
  await staffContext.close();
});

test("staff cannot open the authoring page", async ({ page }) => {
  await signedIn(page, STAFF1);
  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.items().first()).toBeVisible();
  await expect(inbox.writeLink()).toHaveCount(0);
  await page.goto("/inbox/new");
  await expect(page).toHaveURL(/\/unauthorized$/);
});

test("the inbox passes axe with an announcement open, on tablet and phone; screenshots", async ({ page }) => {
  await signedIn(page, "admin@demo.test");
  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.items().first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshots(page, "inbox-list");
  await inbox.toggle("Welcome to MDD-301").click();
  await expect(inbox.item("Welcome to MDD-301").getByRole("link", { name: "study site" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshots(page, "inbox-open");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolations(page);
});

test("a study of the newer instrument architecture lists its announcement instruments, and opening one sends its read event", async ({
  page,
}) => {
  let fetched = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/control/participants/me/announcements")) fetched++;
  });
  // With no study chosen yet, the studies page fetches the list (the nav's dot): counted before
  // the choice, not after it (a request event can reach the test after the click).
  const listedOnStudies = page.waitForResponse((response) =>
    response.url().endsWith("/control/participants/me/announcements"),
  );
  await signedIn(page, STAFF1);
  await listedOnStudies;
  await page.waitForLoadState("networkidle");
  // SCZ-214 is at architecture version 2 in the demo.
  await page.getByRole("link", { name: "Remote Visits Hub" }).click();
  await expect(page).toHaveURL(/\/studies\/102\//);
  const before = fetched;
  const inbox = new InboxPage(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Inbox/ })
    .click();
  await expect(page.getByText(/These are the announcements of SCZ-214 Negative Symptoms/)).toBeVisible();
  // The demo's announcement instrument, delivered to the study's participants, listed once.
  await expect(inbox.items()).toHaveCount(1);
  const update = inbox.item("Visit schedule update");
  await expect(update).toContainText("Study team");
  await expect(update.getByTestId("unread-dot")).toBeVisible();
  await expect(inbox.navDot()).toBeVisible();
  expect(fetched).toBe(before);
  await expectNoSeriousViolations(page);
  await screenshots(page, "inbox-newer-architecture");

  const sent = page.waitForRequest(
    (request) =>
      request.url().includes("/control/participants/me/events") &&
      request.method() === "POST" &&
      (request.postDataJSON() as { info?: { instrument_id?: unknown } }[]).some(
        (event) => typeof event.info?.instrument_id === "number",
      ),
  );
  await inbox.toggle("Visit schedule update").click();
  await expect(update).toContainText("study visits start at 8:30");
  await expect(update.getByTestId("unread-dot")).toHaveCount(0);
  await expect(inbox.navDot()).toHaveCount(0);
  const request = await sent;
  expect(request.postDataJSON()).toEqual([
    expect.objectContaining({
      type: "read",
      study_id: 102,
      info: expect.objectContaining({ study_id: 102 }),
    }),
  ]);
  expect((await request.response())?.status()).toBe(200);
  await screenshots(page, "inbox-newer-architecture-open");

  // Read on the server: after a reload it is still read.
  await page.reload();
  await expect(inbox.items()).toHaveCount(1);
  await expect(inbox.unreadToggles()).toHaveCount(0);
});

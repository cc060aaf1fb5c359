/**
 * The site's participant list beside the search: sorted by the server, paged
 * with "Load more", each row opening its participant, kept on the device for offline use.
 */
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome, SearchPage } from "./pages/participant-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { DEMO_PASSWORD } from "./support/demo.ts";

const STAFF1 = "staff1@demo.test";
/** Boston (MDD-301): half the study's 72 demo participants, more than a page of 25. */
const STUDY = 101;
const SITE = 1011;
const PAGE_SIZE = 25;

const listSection = (page: Page) => page.getByRole("region", { name: "Participants at this site" });
const table = (page: Page) => listSection(page).getByRole("table");
const bodyRows = (page: Page) => table(page).locator("tbody tr");
const header = (page: Page, name: string) => table(page).getByRole("columnheader", { name });

/** The subject ids shown, row by row (the third column). */
async function subjectIds(page: Page) {
  return (await bodyRows(page).locator("td:nth-child(3)").allTextContents()).map((text) => text.trim());
}

/** The demo's own subject ids (MDD-1001...), in the order shown: others' enrolments aside. */
const demoIds = (ids: string[]) => ids.filter((id) => /^MDD-\d{4}$/.test(id));

async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
}

/** Whether the device's query cache (IndexedDB) holds a participant list yet. */
async function listIsPersisted(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("clinro-query-cache");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains("clients")) return false;
      const all = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction("clients").objectStore("clients").getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return JSON.stringify(all).includes('"list","subject_id","asc"');
    } finally {
      db.close();
    }
  });
}

async function pressWithKeyboard(page: Page, control: Locator) {
  await control.focus();
  await expect(control).toBeFocused();
  await page.keyboard.press("Enter");
}

test("the site's participants: sorted columns, Load more, a tap opens that participant, offline from the cache", async ({
  page,
  context,
}) => {
  await signedInWithKeptSession(page, STAFF1, DEMO_PASSWORD);
  const search = new SearchPage(page);
  await search.goto(STUDY, SITE);

  // With the search box empty the site's list shows, by last name, a page at a time.
  await expect(
    listSection(page).getByRole("heading", { level: 2, name: "Participants at this site" }),
  ).toBeVisible();
  await expect(bodyRows(page)).toHaveCount(PAGE_SIZE);
  const status = listSection(page).getByRole("status");
  await expect(status).toHaveText(/^Showing 25 of (\d+) participants$/);
  const total = Number((await status.textContent())!.match(/of (\d+)/)![1]);
  expect(total, "Boston's demo participants and any enrolled by other tests").toBeGreaterThanOrEqual(36);
  await expect(header(page, "Last name")).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "none");
  await expect(header(page, "Enrolled")).toHaveAttribute("aria-sort", "none");
  await expect(header(page, "First name")).not.toHaveAttribute("aria-sort");
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "browse-participants", "list-by-last-name", { fullPage: false });

  // Sort by subject id: the header's button, from the keyboard; the order is in the URL.
  const byLastName = await subjectIds(page);
  await pressWithKeyboard(page, header(page, "Subject id").getByRole("button"));
  await expect(page).toHaveURL(/sort=subject_id/);
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, "Last name")).toHaveAttribute("aria-sort", "none");
  await expect.poll(() => subjectIds(page)).not.toEqual(byLastName);
  const ascending = demoIds(await subjectIds(page));
  expect(ascending.length).toBeGreaterThan(1);
  expect(ascending).toEqual([...ascending].sort());
  // The button keeps its focus: the page was not rebuilt.
  await expect(header(page, "Subject id").getByRole("button")).toBeFocused();

  // Again: descending.
  await page.keyboard.press("Enter");
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/sort=subject_id&order=desc|order=desc&sort=subject_id/);
  await expect.poll(async () => demoIds(await subjectIds(page))[0]! > ascending.at(-1)!).toBe(true);
  const descending = demoIds(await subjectIds(page));
  expect(descending).toEqual([...descending].sort().reverse());
  expect(descending[0]! > ascending.at(-1)!).toBe(true);

  // Back to ascending for the paging below.
  await page.keyboard.press("Enter");
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "ascending");

  // Load more, from the keyboard: the next page follows the first, in order, none twice.
  const firstPage = await subjectIds(page);
  const more = listSection(page).getByRole("button", { name: "Load more" });
  await pressWithKeyboard(page, more);
  await expect(bodyRows(page)).toHaveCount(Math.min(total, 2 * PAGE_SIZE));
  await expect(status).toHaveText(`Showing ${Math.min(total, 2 * PAGE_SIZE)} of ${total} participants`);
  const twoPages = await subjectIds(page);
  expect(twoPages.slice(0, PAGE_SIZE)).toEqual(firstPage);
  const allDemo = demoIds(twoPages);
  expect(allDemo).toEqual([...allDemo].sort());
  expect(new Set(allDemo).size).toBe(allDemo.length);
  while (await more.isVisible()) {
    const shown = await bodyRows(page).count();
    await more.click();
    await expect(bodyRows(page)).toHaveCount(Math.min(total, shown + PAGE_SIZE));
  }
  await expect(bodyRows(page)).toHaveCount(total);
  await expect(more).toHaveCount(0);
  // The header row stays in sight, under the app's header, at the end of the long list.
  await bodyRows(page).last().scrollIntoViewIfNeeded();
  await expect(header(page, "Subject id")).toBeInViewport();
  await screenshotAtSizes(page, "browse-participants", "list-by-subject-id-all", { fullPage: false });

  // A tap on a row (on its subject id, not its link) opens THE participant of that row.
  const row = bodyRows(page).nth(PAGE_SIZE + 3);
  const tappedSubjectId = (await row.locator("td:nth-child(3)").textContent())!.trim();
  const lastName = (await row.locator("td:nth-child(1)").textContent())!.trim();
  const firstName = (await row.locator("td:nth-child(2)").textContent())!.trim();
  await row.locator("td:nth-child(3)").click();
  const home = new ParticipantHome(page);
  await expect(home.name(`${firstName} ${lastName}`)).toBeVisible();
  if (tappedSubjectId) await expect(page.getByText(tappedSubjectId, { exact: true }).first()).toBeVisible();

  // Back: the list keeps its order.
  await page.goBack();
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "ascending");

  // Offline after a reload: the pages come from the device's cache.
  await waitForServiceWorker(page);
  await expect.poll(() => listIsPersisted(page)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(search.heading()).toBeVisible();
  await expect(bodyRows(page).first()).toBeVisible();
  await expect(header(page, "Subject id")).toHaveAttribute("aria-sort", "ascending");
  expect(demoIds(await subjectIds(page)).slice(0, 3)).toEqual(allDemo.slice(0, 3));
  await context.setOffline(false);
});

test("on a phone the rows are cards, sorted by the Sort by choice, and a tap opens the participant", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedInWithKeptSession(page, STAFF1, DEMO_PASSWORD);
  await new SearchPage(page).goto(STUDY, SITE);
  await expect(bodyRows(page)).toHaveCount(PAGE_SIZE);
  const sortBy = listSection(page).getByRole("combobox", { name: "Sort by" });
  await expect(sortBy).toBeVisible();
  await sortBy.selectOption({ label: "Enrolled, newest first" });
  await expect(page).toHaveURL(/sort=enrolled/);
  await expect(header(page, "Enrolled")).toHaveAttribute("aria-sort", "descending");
  // The card shows each value under its column's name.
  const card = bodyRows(page).first();
  await expect(card.locator("td[data-label='Subject id']")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "browse-participants", "phone-by-enrolment", { fullPage: false });

  const lastName = (await card.locator("td:nth-child(1)").textContent())!.trim();
  const firstName = (await card.locator("td:nth-child(2)").textContent())!.trim();
  await card.locator("td:nth-child(2)").click();
  await expect(new ParticipantHome(page).name(`${firstName} ${lastName}`)).toBeVisible();
});

/**
 * Tables on a tablet: column headers break between words only, never
 * inside one, at iPad widths; subject ids never wrap; a long table's header row stays in sight
 * under the sticky app header; that header takes little of an iPad's height; and the users table
 * fits an iPad in portrait and becomes cards on a phone.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ConsentListPage } from "./pages/consent-pages.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { DEMO_PASSWORD } from "./support/demo.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";

const ADMIN = "admin@demo.test";
const MDD_301 = 101;
const BOSTON = 1011;
const IPAD_WIDTHS = [768, 1024];

async function signedIn(page: Page) {
  await signedInWithKeptSession(page, ADMIN, DEMO_PASSWORD);
}

/**
 * What is wrong with the page's shown column headers: a header wider than its cell, or a word of
 * one laid out on more than one line (each word's text range gives one box per line it is on).
 */
function headerProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const th of document.querySelectorAll<HTMLElement>("thead th")) {
      // A phone's cards keep their header row out of sight, one pixel wide.
      if (th.getBoundingClientRect().width < 2) continue;
      const name = th.textContent?.trim() ?? "";
      if (th.scrollWidth > th.clientWidth) problems.push(`"${name}" is wider than its column`);
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest(".visually-hidden")) continue;
        for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)),
          );
          if (lines.size > 1) problems.push(`"${word[0]}" of "${name}" breaks over ${lines.size} lines`);
        }
      }
    }
    return problems;
  });
}

/** Whether the page's table is wider than its region, or the page than the screen. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const region = document.querySelector<HTMLElement>(".table-scroll");
    return {
      table: region ? region.scrollWidth > region.clientWidth : null,
      page: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
}

async function expectHeadersWhole(page: Page) {
  for (const width of IPAD_WIDTHS) {
    await page.setViewportSize({ width, height: width === 768 ? 1024 : 768 });
    await expect.poll(() => headerProblems(page), { message: `headers at ${width} px` }).toEqual([]);
    expect(await overflow(page), `no sideways scrolling at ${width} px`).toEqual({
      table: false,
      page: false,
    });
  }
}

/** The main consent's participants page, from the consent list's link. */
async function openMainConsent(page: Page) {
  const list = new ConsentListPage(page);
  await list.goto(MDD_301, BOSTON);
  await list.row("Main Study Informed Consent").getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Main Study Informed Consent" })).toBeVisible();
}

test.describe("tables on a tablet", () => {
  test("the consent's participants: whole header words, subject ids on one line, the header row stays in sight", async ({
    page,
  }) => {
    await signedIn(page);
    await openMainConsent(page);
    await expect(page.getByRole("columnheader", { name: /Participant id/ }).first()).toBeVisible();
    await expectHeadersWhole(page);

    // Subject ids keep to one line at iPad widths ("MDD-" over "1065" before).
    await page.setViewportSize({ width: 768, height: 1024 });
    const subjectIds = page.getByRole("cell", { name: /^MDD-\d+$/ });
    await expect(subjectIds.first()).toBeVisible();
    for (const cell of await subjectIds.all()) {
      const lines = await cell.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
      });
      expect(lines).toBe(1);
    }

    // Scrolled into a group, its header row sits right under the sticky app header.
    await page.setViewportSize({ width: 1024, height: 768 });
    const header = page.locator("header.nav-bar");
    const table = page.getByRole("table").first();
    const firstHeader = table.getByRole("columnheader").first();
    const tableBox = (await table.boundingBox())!;
    const headerHeight = (await header.boundingBox())!.height;
    await page.evaluate((y) => window.scrollTo(0, y), tableBox.y + 120 - headerHeight);
    await expect
      .poll(async () => Math.round((await firstHeader.boundingBox())!.y - headerHeight))
      .toBeLessThanOrEqual(1);
    expect(Math.round((await firstHeader.boundingBox())!.y - headerHeight)).toBeGreaterThanOrEqual(-1);
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "tables", "consent-participants", { fullPage: false });
  });

  test("the consents list and the site's pending instruments: whole header words", async ({ page }) => {
    await signedIn(page);
    await new ConsentListPage(page).goto(MDD_301, BOSTON);
    await expectHeadersWhole(page);
    await page.goto(`/studies/${MDD_301}/sites/${BOSTON}/pending`);
    await expect(page.getByRole("table")).toBeVisible();
    await expectHeadersWhole(page);
  });

  test("the sticky header takes at most 120 px of an iPad in landscape, inside a study", async ({ page }) => {
    await signedIn(page);
    await page.goto(`/studies/${MDD_301}/sites/${BOSTON}/search`);
    const header = page.locator("header.nav-bar");
    await expect(header.getByRole("navigation", { name: "Study" })).toContainText(
      "Boston Clinical Research Center",
    );
    await page.setViewportSize({ width: 1024, height: 768 });
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(120);
    await page.setViewportSize({ width: 768, height: 1024 });
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(120);
    // The tables' header rows stick under it: the app keeps its height for them.
    const property = await page.evaluate(() =>
      document.documentElement.style.getPropertyValue("--app-header-height"),
    );
    expect(property).toBe(`${Math.round((await header.boundingBox())!.height)}px`);
  });
});

test.describe("the users table", () => {
  test("fits an iPad in portrait with both roles, and shows each user as a card on a phone", async ({
    page,
  }) => {
    await signedIn(page);
    await page.goto("/users");
    const witness = page.getByRole("row").filter({ hasText: "witness@demo.test" });
    // The account role, and the role in the study in the study staff's words.
    await expect(witness.getByRole("cell", { name: "Enroller", exact: true })).toBeVisible();
    await expect(witness).toContainText("Impartial Witness · MDD-301 Depression Maintenance");
    const coordinator = page.getByRole("row").filter({ hasText: "coordinator@demo.test" });
    await expect(coordinator.getByRole("cell", { name: "Study manager", exact: true })).toBeVisible();
    await expect(coordinator).toContainText("Clinical Coordinator · GAD-118 Anxiety Open-Label, MDD-301");
    await expectHeadersWhole(page);
    // In portrait, an address wraps before its @, never inside its local part.
    await page.setViewportSize({ width: 768, height: 1024 });
    for (const row of [witness, coordinator]) {
      const localPartLines = await row.locator("td.users-table__email").evaluate((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell.firstChild!);
        return range.getClientRects().length;
      });
      expect(localPartLines).toBe(1);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(witness).toHaveCSS("display", "grid");
    expect(await overflow(page)).toEqual({ table: false, page: false });
    // Each value under its column's name.
    // Each value under its column's name (a card's cell is named by its label and its value).
    await expect(witness.locator('td[data-label="Role"]')).toHaveText("Enroller");
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "tables", "users");
  });

  test("Users is in the user menu of an administrator only, on a phone too", async ({ page }) => {
    await signedIn(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(".user-menu__button").click();
    await page.getByRole("link", { name: "Users", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

    await page.locator(".user-menu__button").click();
    await page.getByRole("button", { name: "Log out" }).click();
    await signedInWithKeptSession(page, "staff1@demo.test", DEMO_PASSWORD);
    await page.locator(".user-menu__button").click();
    await expect(page.getByRole("link", { name: "Update profile" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
  });
});

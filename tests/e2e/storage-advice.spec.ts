/**
 * Where the browser may clear this device's data (persistent storage not granted, or
 * a browser that cannot say, as WebKit), the studies page and the queue page say so in a
 * clinician's words, and how to keep it: install the portal to the Home Screen.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

/** The browser's answer to persist() and persisted(), whatever this machine's Chromium decides. */
const persistentStorage = (page: Page, granted: boolean) =>
  page.addInitScript((value) => {
    Object.defineProperty(navigator.storage, "persist", { value: () => Promise.resolve(value) });
    Object.defineProperty(navigator.storage, "persisted", { value: () => Promise.resolve(value) });
  }, granted);

const advice = (page: Page) => page.getByRole("region", { name: "Install the portal on this tablet" });

test("not persistent: the studies page advises installing until dismissed, the queue page always", async ({
  page,
}) => {
  await persistentStorage(page, false);
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  await expect(advice(page)).toContainText(
    "Safari may clear this site's data after seven days without use, answers waiting to be sent included.",
  );
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "storage-advice", "studies");
  await advice(page).getByRole("button", { name: "Got it" }).click();
  await expect(advice(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await expect(advice(page)).toHaveCount(0);

  await page.goto("/outbox");
  await expect(advice(page)).toBeVisible();
  await expect(advice(page).getByRole("button")).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "storage-advice", "queue");
});

test("persistent storage granted: no advice", async ({ page }) => {
  await persistentStorage(page, true);
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  await page.goto("/outbox");
  await expect(page.getByText("Persistent storage granted")).toBeVisible();
  await expect(advice(page)).toHaveCount(0);
});

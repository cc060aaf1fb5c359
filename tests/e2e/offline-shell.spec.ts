import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signInAs } from "./pages/login-page.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

/** Waits until the service worker has installed the shell and controls the page. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
}

test("the app shell opens with the network cut after a first visit", async ({ page, context }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
  // A deep link opens offline too: the worker answers every page path with the shell.
  await page.goto("/unauthorized");
  await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await context.setOffline(false);
});

test("a signed-in clinician still sees their studies offline", async ({ page, context }) => {
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page.getByRole("link", { name: "Remote Visits Hub" })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Remote Visits Hub" })).toBeVisible();
  await context.setOffline(false);
});

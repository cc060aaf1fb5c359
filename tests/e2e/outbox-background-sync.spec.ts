import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const SYNC_TAG = "clinro-outbox";

/** Items in the outbox's IndexedDB, read from a page of the origin that runs no app code. */
const rawQueueLength = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("clinro-outbox");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("items")) return resolve(0);
          const count = db.transaction("items").objectStore("items").count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
      }),
  );

test.describe("Background Sync", () => {
  test.describe.configure({ timeout: 90_000 });
  let server: PortalServer;

  test.beforeEach(async ({ browserName: _browser }, testInfo) => {
    server = await createPortalServer(4370 + testInfo.workerIndex);
    await server.start();
  });

  test.afterEach(async () => {
    await server.dispose();
  });

  test("the service worker sends queued writes after the tab was closed", async ({ context, page }) => {
    const run = randomUUID();
    await page.goto(`${server.url}/login`);
    await page.getByLabel("Username").fill(COORDINATOR);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    await page.evaluate(() => navigator.serviceWorker.ready);

    await context.setOffline(true);
    await page.evaluate(async (run) => {
      for (let seq = 0; seq < 3; seq++) {
        await window.clinroOutbox!.enqueueEvents(
          [{ type: "seen", timestamp: new Date().toISOString(), info: { run, seq } }],
          `event ${seq}`,
        );
      }
    }, run);

    expect(await rawQueueLength(page)).toBe(3);

    // The clinician closes the tab; a page with no app code stays to watch and to reach the
    // worker. Whatever sends the items from now on is the service worker: Chromium may fire the
    // sync by itself when the network returns; the test fires it too, so as not to depend on when.
    const watcher = await context.newPage();
    await page.close();
    await context.setOffline(false);
    await watcher.goto(`${server.url}/healthz`);

    const cdp = await context.newCDPSession(watcher);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL.startsWith(server.url));
        if (ours && !ours.isDeleted) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.dispatchSyncEvent", {
      origin: server.url,
      registrationId: await registrationId,
      tag: SYNC_TAG,
      lastChance: false,
    });

    await expect.poll(() => rawQueueLength(watcher), { timeout: 20_000 }).toBe(0);
    await server.stop();
    expect(
      await server.count(`select count(*) as count from participant_events where info->>'run' = $1`, [run]),
    ).toBe(3);
  });
});

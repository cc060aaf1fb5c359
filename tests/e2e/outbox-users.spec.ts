import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";
import { COORDINATOR, DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";

async function signIn(page: Page, server: PortalServer, username: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
}

async function signOutThroughTheMenu(page: Page, name: string) {
  await page.getByRole("button", { name }).click();
  await page.getByRole("button", { name: "Log out" }).click();
}

/** The users' items waiting (a sign-out's revocation is the outbox's own, not a user's item). */
const queued = (page: Page) =>
  page.evaluate(
    async () => (await window.clinroOutbox!.list()).filter((item) => item.kind !== "revocation").length,
  );

/** The user ids that have a persisted query cache in this browser. */
const persistedCacheOwners = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<IDBValidKey[]>((resolve, reject) => {
        const open = indexedDB.open("clinro-query-cache");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("clients")) return resolve([]);
          const keys = db.transaction("clients").objectStore("clients").getAllKeys();
          keys.onsuccess = () => resolve(keys.result);
          keys.onerror = () => reject(keys.error);
        };
      }),
  );

test.describe("outbox items and users", () => {
  test.describe.configure({ timeout: 90_000 });
  let server: PortalServer;

  test.beforeEach(async ({ browserName: _browser }, testInfo) => {
    server = await createPortalServer(4350 + testInfo.workerIndex);
    await server.start();
  });

  test.afterEach(async () => {
    await server.dispose();
  });

  test("items wait through a sign-out, never go with another user's token, and go when their user is back", async ({
    context,
    page,
  }) => {
    const run = randomUUID();
    await signIn(page, server, COORDINATOR);
    await context.setOffline(true);
    await page.evaluate(
      (run) =>
        window.clinroOutbox!.enqueueEvents(
          [{ type: "seen", timestamp: new Date().toISOString(), info: { run } }],
          "coordinator's event",
        ),
      run,
    );
    // Signing out with an item pending (still offline) warns first, and keeps the item.
    await page.getByRole("button", { name: "Carmen Ortiz" }).click();
    await page.getByRole("button", { name: "Log out" }).click();
    const warning = page.getByRole("dialog");
    await expect(warning).toContainText("Not sent yet: 1 update.");
    await warning.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await queued(page)).toBe(1);
    // Back online with nobody signed in: the item has no token to go with, so it stays.
    await context.setOffline(false);
    await page.evaluate(() => window.clinroOutbox!.flush());
    expect(await queued(page)).toBe(1);

    // Another user signs in on the same tablet: the coordinator's item stays and is not sent.
    await signIn(page, server, STAFF3);
    await page.evaluate(() => window.clinroOutbox!.flush());
    expect(await queued(page)).toBe(1);
    await signOutThroughTheMenu(page, "Farid Haddad");
    await expect(page).toHaveURL(/\/login/);

    await signIn(page, server, COORDINATOR);
    await expect.poll(() => queued(page), { timeout: 20_000 }).toBe(0);
    await server.stop();
    const rows = await server.count(
      `select count(*) as count from participant_events e join users u on u.id = e.user_id
       where e.info->>'run' = $1 and u.username = $2`,
      [run, COORDINATOR],
    );
    expect(rows).toBe(1);
  });

  test("the persisted query cache belongs to the signed-in user and is wiped on sign-out", async ({
    page,
  }) => {
    await signIn(page, server, COORDINATOR);
    await expect.poll(() => persistedCacheOwners(page)).toHaveLength(1);
    await signOutThroughTheMenu(page, "Carmen Ortiz");
    await expect(page).toHaveURL(/\/login/);
    await expect.poll(() => persistedCacheOwners(page)).toEqual([]);
  });
});

import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { DEMO_PASSWORD } from "./support/demo.ts";
import { LoginPage, signInAs, storedUser } from "./pages/login-page.ts";
import { ParticipantHome, SearchPage } from "./pages/participant-pages.ts";

const STAFF1 = "staff1@demo.test";
const REVOKED_REASON =
  "Your session was closed on the server (signed out elsewhere or by an administrator). Sign in again to continue.";

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

/** The user's own items: the sign-out's revocation (sent and then gone) is not one of them. */
const queued = (page: Page) =>
  page.evaluate(
    async () => (await window.clinroOutbox!.list()).filter((item) => item.kind !== "revocation").length,
  );

async function openParticipant(page: Page) {
  await signInAs(page, STAFF1, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
  const search = new SearchPage(page);
  await search.goto(101, 1011);
  await search.search("MDD-1001");
  await search.results().getByRole("link", { name: "Rossi" }).click();
  const home = new ParticipantHome(page);
  await expect(home.name("Yuki Rossi")).toBeVisible();
  const user = await storedUser(page);
  const userId = Number(user?.id);
  await expect.poll(() => persistedCacheOwners(page)).toContain(userId);
  return { home, user, userId };
}

/** The session is closed on the server (another screen's sign-out, an administrator). */
async function revokeOnServer(page: Page, token: string) {
  const revoked = await page.request.post("/control/clinro/logout", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(revoked.status()).toBe(204);
}

async function expectSignedOutWithReason(page: Page, userId: number) {
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("status").filter({ hasText: REVOKED_REASON })).toBeVisible();
  await expect(page.getByText("Yuki Rossi")).toHaveCount(0);
  expect(await storedUser(page)).toBeNull();
  await expect.poll(() => persistedCacheOwners(page)).not.toContain(userId);
}

test("a token the server revoked signs the browser out at the outbox's first refusal, keeping the queue", async ({
  page,
}) => {
  const { home, user, userId } = await openParticipant(page);
  await revokeOnServer(page, String(user?.token));
  // Made before the browser learns of it: the background send meets the 401 first, while the
  // participant's page asks the server nothing. It must survive the sign-out.
  await page.evaluate(() =>
    window.clinroOutbox!.enqueueEvents(
      [{ type: "seen", timestamp: new Date().toISOString(), info: { revoked: true } }],
      "event made before the revocation was known",
    ),
  );
  await page.evaluate(() => window.clinroOutbox!.flush());
  await expectSignedOutWithReason(page, userId);
  expect(await queued(page)).toBe(1);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "revoked-session", "sign-in-with-reason");

  // The reason is said until the next sign-in, which returns to the participant, now read afresh;
  // the queued item goes with the new session.
  const login = new LoginPage(page);
  await login.signIn(STAFF1, DEMO_PASSWORD);
  await expect(home.name("Yuki Rossi")).toBeVisible();
  await expect.poll(() => queued(page), { timeout: 20_000 }).toBe(0);
  await expect(page.getByText(REVOKED_REASON)).toHaveCount(0);
});

test("a token the server revoked signs the browser out at the page's first refusal", async ({ page }) => {
  const { userId, user } = await openParticipant(page);
  await revokeOnServer(page, String(user?.token));
  // A minute on, the participant's page asks the server again: the first 401 of the revoked token.
  await page.clock.setSystemTime(Date.now() + 60_000);
  await page.reload();
  await expectSignedOutWithReason(page, userId);
});

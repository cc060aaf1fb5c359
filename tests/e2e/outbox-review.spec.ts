import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { type Page, type TestInfo } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signInAs } from "./pages/login-page.ts";
import { OutboxPage, enqueueEvents, queuedItems } from "./pages/outbox-page.ts";
import { COORDINATOR, DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";

/** The demo seed's first participant (study 101), which the coordinator may see. */
const PARTICIPANT_ID = 1;
/** The flusher's cross-tab lock (src/outbox/flusher.ts): holding it plays "another tab is sending". */
const FLUSH_LOCK_NAME = "clinro-outbox-flush";
const SIZES = [
  { name: "tablet-landscape", width: 1024, height: 768 },
  { name: "tablet-portrait", width: 768, height: 1024 },
  { name: "phone", width: 390, height: 844 },
];

// No service worker: its Background Sync would send the queue behind the test's back.
test.use({ serviceWorkers: "block" });

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
  expect(serious).toEqual([]);
}

function seenEvent(note: string) {
  return { type: "seen", timestamp: new Date().toISOString(), info: { note } };
}

async function signIn(page: Page, username = COORDINATOR) {
  await signInAs(page, username, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
}

/** The page at each tablet and phone size, kept with the test's results for looking at. */
async function screenshotAtEverySize(page: Page, testInfo: TestInfo, name: string, fullPage = true) {
  const original = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const path = testInfo.outputPath(`${name}-${size.name}.png`);
    await page.screenshot({ path, fullPage });
    await testInfo.attach(`${name}-${size.name}`, { path, contentType: "image/png" });
  }
  if (original) await page.setViewportSize(original);
}

/** Takes the flush lock and holds it until the returned function is called. */
async function holdFlushLock(page: Page) {
  await page.evaluate(
    (name) =>
      new Promise<void>((acquired) => {
        void navigator.locks.request(name, () => {
          acquired();
          return new Promise<void>((release) => {
            (window as unknown as { releaseFlushLock: () => void }).releaseFlushLock = release;
          });
        });
      }),
    FLUSH_LOCK_NAME,
  );
  return () =>
    page.evaluate(() => (window as unknown as { releaseFlushLock: () => void }).releaseFlushLock());
}

test("writes queued offline are listed with their status, and leave once back online with Retry all", async ({
  context,
  page,
}, testInfo) => {
  await signIn(page);
  const outbox = new OutboxPage(page);

  await context.setOffline(true);
  await enqueueEvents(page, [seenEvent("offline 1")], "PHQ-9 seen", PARTICIPANT_ID);
  await enqueueEvents(page, [seenEvent("offline 2")], "Announcement read");
  // Each enqueue tries to send at once and fails: the item records a network error.
  await expect.poll(async () => (await queuedItems(page)).filter((item) => item.lastError).length).toBe(2);

  await expect(outbox.badge()).toHaveAccessibleName("2 items waiting to be sent");
  await expect(outbox.badge()).toHaveText("2");
  await outbox.openFromBadge();

  const participant = outbox.group(`Participant ${PARTICIPANT_ID}`);
  const noParticipant = outbox.group("No participant");
  await expect(participant.getByRole("listitem")).toHaveCount(1);
  await expect(noParticipant.getByRole("listitem")).toHaveCount(1);
  const first = outbox.item("PHQ-9 seen");
  await expect(first).toContainText("Not sent yet, retrying automatically");
  await expect(first).toContainText("Event");
  await expect(first).toContainText("No connection to the server");
  await expect(first).toContainText(/\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}/);
  await expect(first.getByRole("button", { name: "Retry now: PHQ-9 seen" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Storage on this device" })).toBeVisible();
  await expect(page.getByText(/^Storage used: .+ of .+$/)).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtEverySize(page, testInfo, "outbox-offline");

  // Nothing may leave before Retry all is pressed: hold the sending lock while the network returns.
  const releaseFlushLock = await holdFlushLock(page);
  await context.setOffline(false);
  await outbox.retryAll().click();
  await expect(page.getByRole("button", { name: "Retrying…" }).first()).toBeVisible();
  await releaseFlushLock();

  await expect(outbox.emptyState()).toBeVisible();
  await expect(outbox.badge()).toHaveCount(0);
  expect(await queuedItems(page)).toEqual([]);
});

test("a refused item can be exported as JSON, and discarding it asks first", async ({ page }, testInfo) => {
  await signIn(page);
  const outbox = new OutboxPage(page);
  // The server refuses an event of an unknown type (400): kept, shown, never retried blindly.
  await enqueueEvents(
    page,
    [{ type: "not-an-event", timestamp: "yesterday" }],
    "Broken event",
    PARTICIPANT_ID,
  );
  await expect.poll(async () => (await queuedItems(page))[0]?.state).toBe("failed");
  await outbox.openFromBadge();

  const item = outbox.item("Broken event");
  await expect(item).toContainText("Refused by the server, not retried automatically");
  await expect(item).toContainText("The server answered 400");

  const downloading = page.waitForEvent("download");
  await item.getByRole("button", { name: "Export: Broken event" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^clinro-outbox-event-.+\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(exported).toMatchObject({
    format: "clinro-outbox-item",
    item: { kind: "event", label: "Broken event", state: "failed", participantId: PARTICIPANT_ID },
    request: {
      method: "POST",
      path: "/control/participants/me/events",
      body: { type: "json", value: [{ type: "not-an-event", timestamp: "yesterday" }] },
    },
  });

  // Escape cancels, and focus goes back to the Discard button.
  const discard = item.getByRole("button", { name: "Discard: Broken event" });
  await discard.click();
  const dialog = page.getByRole("dialog", { name: "Discard this item?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshotAtEverySize(page, testInfo, "outbox-discard-dialog", false);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(discard).toBeFocused();
  expect(await queuedItems(page)).toHaveLength(1);

  await discard.click();
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(outbox.emptyState()).toBeVisible();
  expect(await queuedItems(page)).toEqual([]);
});

test("logging out with items pending warns first and keeps them for the next sign-in", async ({
  context,
  page,
}) => {
  await signIn(page);
  const outbox = new OutboxPage(page);
  await context.setOffline(true);
  await enqueueEvents(page, [seenEvent("before logout")], "Seen before logout", PARTICIPANT_ID);
  await expect(outbox.badge()).toHaveAccessibleName("1 item waiting to be sent");

  const openMenuAndLogOut = async () => {
    await page.getByRole("button", { name: "Carmen Ortiz" }).click();
    await page.getByRole("button", { name: "Log out" }).click();
  };
  await openMenuAndLogOut();
  const dialog = page.getByRole("dialog", { name: "Log out with items not sent?" });
  await expect(dialog).toContainText(
    "1 item has not been sent yet. It stays on this device and is sent when you sign in again.",
  );
  await expectNoSeriousViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Carmen Ortiz" })).toBeFocused();
  await expect(page).toHaveURL(/\/studies$/);

  await openMenuAndLogOut();
  await dialog.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await queuedItems(page)).toHaveLength(1);

  // Back online and signed in again: the item is sent with the new session.
  await context.setOffline(false);
  await signIn(page);
  await expect.poll(async () => (await queuedItems(page)).length, { timeout: 15_000 }).toBe(0);
  await expect(outbox.badge()).toHaveCount(0);
});

test("a coordinator sees another user's waiting item as metadata only", async ({
  context,
  page,
}, testInfo) => {
  await signIn(page, STAFF3);
  await context.setOffline(true);
  await enqueueEvents(page, [seenEvent("staff3")], "GAD-7 seen", PARTICIPANT_ID);
  await page.getByRole("button", { name: "Farid Haddad" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);

  // Signing out removed Farid's token: his item waits for him, whoever signs in next.
  await context.setOffline(false);
  await signIn(page);
  const outbox = new OutboxPage(page);
  // Not the coordinator's own item: no badge for her.
  await expect(outbox.badge()).toHaveCount(0);
  await page.getByRole("button", { name: "Carmen Ortiz" }).click();
  await page.getByRole("link", { name: "Queued uploads" }).click();
  await expect(outbox.heading()).toBeVisible();

  const item = outbox.item("GAD-7 seen");
  await expect(item).toContainText("Waiting for its author to sign in again");
  await expect(item).toContainText(`Made by${STAFF3}`);
  await expect(item.getByRole("button", { name: /^Export/ })).toHaveCount(0);
  await expect(item.getByRole("button", { name: /^Discard/ })).toHaveCount(0);
  // Nothing a retry could change before Farid signs in again.
  await expect(item.getByRole("button", { name: /^Retry now/ })).toHaveCount(0);
  await expect(outbox.retryAll()).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshotAtEverySize(page, testInfo, "outbox-other-user");
});

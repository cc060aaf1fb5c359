import { readFile } from "node:fs/promises";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { type Page, type TestInfo } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signInAs } from "./pages/login-page.ts";
import { OutboxPage, enqueueEvents, queuedItems } from "./pages/outbox-page.ts";
import { COORDINATOR, DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";

/** The demo seed's first participant (study 101), which the coordinator may see. */
const PARTICIPANT_ID = 1;
/** The flusher's cross-tab lock (src/outbox/flusher.ts): holding it plays "another tab is sending". */
const FLUSH_LOCK_NAME = "clinro-outbox-flush";
// A whole 1x1 PNG, standing for a drawn signature.
const PNG_BYTES = Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGPg9s/5DwAC9QHGAcHe5gAAAABJRU5ErkJggg==",
    "base64",
  ),
);
const SIZES = [
  { name: "tablet-landscape", width: 1024, height: 768 },
  { name: "tablet-portrait", width: 768, height: 1024 },
  { name: "phone", width: 390, height: 844 },
];

// No service worker: its Background Sync would send the queue behind the test's back.
test.use({ serviceWorkers: "block" });

function seenEvent(note: string) {
  return { type: "seen", timestamp: new Date().toISOString(), info: { note } };
}

async function signIn(page: Page, username = COORDINATOR) {
  await signInAs(page, username, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
}

/**
 * Opens the participant's page (study 101, site 1011), as a clinician does before entering their
 * data, and answers the name and subject id it shows.
 */
async function openParticipant(page: Page) {
  const details = page.waitForResponse(
    (response) =>
      response.url().includes("/control/") &&
      response.url().endsWith(`/participants/${PARTICIPANT_ID}`) &&
      response.request().method() === "GET",
  );
  await page.goto(`/studies/101/sites/1011/participants/${PARTICIPANT_ID}`);
  const participant = (await (await details).json()) as { fname: string; lname: string; subject_id: string };
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return { participantName: `${participant.fname} ${participant.lname}`, subjectId: participant.subject_id };
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
  const { participantName, subjectId } = await openParticipant(page);
  const outbox = new OutboxPage(page);

  await context.setOffline(true);
  await enqueueEvents(page, [seenEvent("offline 1")], "PHQ-9 seen", PARTICIPANT_ID);
  await enqueueEvents(page, [seenEvent("offline 2")], "Announcement read");
  // Each enqueue tries to send at once and fails: the item records a network error.
  await expect.poll(async () => (await queuedItems(page)).filter((item) => item.lastError).length).toBe(2);

  await expect(outbox.badge()).toHaveAccessibleName("Waiting to be sent: 2 updates");
  await expect(outbox.badge()).toHaveText("2");
  await outbox.openFromBadge();

  // The participant by name and subject id, as the participant's page showed them.
  const participant = outbox.group(`${participantName} (subject ${subjectId})`);
  const noParticipant = outbox.group("No participant");
  await expect(participant.getByRole("listitem")).toHaveCount(1);
  await expect(noParticipant.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByText("Waiting to be sent: 2 updates.")).toBeVisible();
  const first = outbox.item("PHQ-9 seen");
  await expect(first.locator(".outbox-status")).toHaveText("Waiting");
  await expect(first).toContainText("Not sent yet, retrying automatically");
  await expect(first).toContainText("Update (a form opened, an announcement read)");
  await expect(first).toContainText(/Size\s*1 KB/);
  // No internal kind shows.
  await expect(first).not.toContainText("Event");
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
  // The page confirms what was sent.
  await expect(page.getByRole("status").filter({ hasText: "Sent: 2 updates." })).toBeVisible();
  await screenshotAtEverySize(page, testInfo, "outbox-sent", false);
});

test("a consent with its signatures counts as one form: in the badge, the page and the logout dialog", async ({
  context,
  page,
}, testInfo) => {
  await signIn(page);
  const { participantName, subjectId } = await openParticipant(page);
  await context.setOffline(true);
  await page.evaluate(
    async ({ participantId, png }) => {
      const user = JSON.parse(localStorage.getItem("user")!) as { id: number; username: string };
      const signature = (fileName: string) => ({
        kind: "upload" as const,
        label: fileName,
        request: {
          method: "POST" as const,
          path: "/control/file/upload",
          body: {
            type: "multipart" as const,
            fields: {
              file_name: fileName,
              platform: "clinro",
              module_name: "consent",
              participant_id: String(participantId),
            },
            files: [{ field: "upload_file", fileName, type: "image/png", bytes: new Uint8Array(png).buffer }],
          },
        },
      });
      await window.clinroOutbox!.enqueueSubmissionWithUploads(
        [signature("participant-signature.png"), signature("clinician-signature.png")],
        {
          kind: "consent",
          label: "Main study consent: signed",
          request: {
            method: "POST",
            path: `/control/v2/clinro/participant/${participantId}/consent`,
            body: { type: "json", value: { consent_id: 1 } },
          },
        },
        { userId: user.id, username: user.username, participantId, studyId: 101, siteId: 1011 },
      );
    },
    { participantId: PARTICIPANT_ID, png: PNG_BYTES },
  );
  expect(await queuedItems(page)).toHaveLength(3);
  const outbox = new OutboxPage(page);
  await expect(outbox.badge()).toHaveAccessibleName("Waiting to be sent: 1 form");
  await expect(outbox.badge()).toHaveText("1");
  await outbox.openFromBadge();
  await expect(page.getByText("Waiting to be sent: 1 form.")).toBeVisible();
  const group = outbox.group(`${participantName} (subject ${subjectId})`);
  await expect(group.getByRole("listitem")).toHaveCount(3);
  const consent = outbox.item("Main study consent: signed");
  await expect(consent).toContainText("Consent form");
  await expect(consent).toContainText("Waiting for its photos and signatures to be sent first");
  const signature = outbox.item("participant-signature.png");
  await expect(signature).toContainText("Photo, signature or file");
  await expect(signature).toContainText(/Goes with\s*Main study consent: signed/);
  await expectNoSeriousViolations(page);
  await screenshotAtEverySize(page, testInfo, "outbox-consent-form");

  await page.getByRole("button", { name: "Carmen Ortiz" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  const dialog = page.getByRole("dialog", { name: "Log out with forms not sent?" });
  await expect(dialog).toContainText(
    "Not sent yet: 1 form. Everything stays on this device and is sent when you sign in again.",
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
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
  await expect(item.locator(".outbox-status")).toHaveText("Failed");
  await expect(item).toContainText("Refused by the server, not retried automatically");
  await expect(page.getByText("Failed, refused by the server: 1 update.")).toBeVisible();
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
  await expect(outbox.badge()).toHaveAccessibleName("Waiting to be sent: 1 update");

  const openMenuAndLogOut = async () => {
    await page.getByRole("button", { name: "Carmen Ortiz" }).click();
    await page.getByRole("button", { name: "Log out" }).click();
  };
  await openMenuAndLogOut();
  const dialog = page.getByRole("dialog", { name: "Log out with forms not sent?" });
  await expect(dialog).toContainText(
    "Not sent yet: 1 update. Everything stays on this device and is sent when you sign in again.",
  );
  await expectNoSeriousViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Carmen Ortiz" })).toBeFocused();
  await expect(page).toHaveURL(/\/studies$/);

  await openMenuAndLogOut();
  await dialog.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  // The user's item, beside the sign-out's own revocation queued for the server.
  expect((await queuedItems(page)).filter((item) => item.kind !== "revocation")).toHaveLength(1);

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

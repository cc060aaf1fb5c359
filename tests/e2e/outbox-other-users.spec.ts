import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { signInAs } from "./pages/login-page.ts";
import { OutboxPage, enqueueEvents, queuedItems } from "./pages/outbox-page.ts";
import { DEMO_PASSWORD, STAFF3 } from "./support/demo.ts";

/** Clinical staff, not a coordinator: shown only their own queued items. */
const STAFF1 = "staff1@demo.test";
/** The demo seed's first participant (study 101). */
const PARTICIPANT_ID = 1;

// No service worker: its Background Sync would send the queue behind the test's back.
test.use({ serviceWorkers: "block" });

async function signIn(page: Page, username: string) {
  await signInAs(page, username, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
}

test("the queue says that another user's items wait on the device, without showing them", async ({
  context,
  page,
}) => {
  await signIn(page, STAFF3);
  await context.setOffline(true);
  await enqueueEvents(
    page,
    [{ type: "seen", timestamp: new Date().toISOString(), info: { note: "staff3" } }],
    "GAD-7 seen",
    PARTICIPANT_ID,
  );
  await page.getByRole("button", { name: "Farid Haddad" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await context.setOffline(false);

  // A colleague who is not a coordinator signs in on the same tablet: Farid's item is not sent
  // (his token left with him), not shown, and not forgotten either.
  await signIn(page, STAFF1);
  const outbox = new OutboxPage(page);
  await outbox.goto();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "1 item made by another user on this device is still waiting to be sent." }),
  ).toBeVisible();
  await expect(
    page.getByText(
      "Nothing of yours is waiting to be sent: everything you made on this device has reached the server.",
    ),
  ).toBeVisible();
  await expect(page.getByText("everything made on this device has reached the server")).toHaveCount(0);
  await expect(page.getByText("GAD-7 seen")).toHaveCount(0);
  await expect(page.getByText(STAFF3)).toHaveCount(0);
  expect(await queuedItems(page)).toHaveLength(1);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "outbox-other-users", "others-waiting");
});

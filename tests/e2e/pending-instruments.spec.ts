import { expect, test } from "./support/test.ts";
import type { PendingInstrumentsResponse } from "../../core/contracts/instrument-schemas.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

// Study 103 (GAD-118) has every participant at site 1031, with HAM-D 17 instances open.
const STUDY = 103;
const SITE = 1031;

test("the site's pending instruments across participants, each opening its participant", async ({ page }) => {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  await page.goto(`/studies/${STUDY}/sites/${SITE}/search`);

  const answered = page.waitForResponse((response) =>
    response.url().includes("/control/pending_instruments"),
  );
  await page.getByRole("link", { name: "Pending instruments at this site" }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/${STUDY}/sites/${SITE}/pending$`));
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(response.request().headers()["version"]).toBe("3.4.0");
  const body = (await response.json()) as PendingInstrumentsResponse;
  const ofSite = body.instruments.filter((row) => row.site_id === SITE);
  expect(ofSite.length, "demo instruments pending at the site").toBeGreaterThan(0);

  await expect(page.getByRole("heading", { level: 1, name: "Pending instruments" })).toBeVisible();
  const table = page.getByRole("table", { name: "Pending instruments of this site" });
  await expect(table.locator("tbody tr")).toHaveCount(ofSite.length);
  const first = ofSite[0]!;
  const row = table.locator("tbody tr").first();
  await expect(row).toContainText(first.subject_id);
  await expect(row).toContainText(first.name);
  // The participants tab stays current, and the way back is the search.
  await expect(page.getByRole("link", { name: /Search participant/ }).first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "pending-instruments", "list", { fullPage: false });

  // The subject id opens the participant.
  await row.getByRole("link", { name: new RegExp(`^${first.subject_id} \\(open the participant`) }).click();
  await expect(page).toHaveURL(
    new RegExp(`/studies/${STUDY}/sites/${SITE}/participants/${first.participant_id}$`),
  );
});

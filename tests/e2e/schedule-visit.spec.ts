/**
 * Scheduling a virtual visit from a participant's page: a coordinator of a study with virtual
 * visits opens the dialog (by keyboard too), a wrong duration is said beside its field and sends
 * nothing, the visit is scheduled with its date, time, duration and recording, the page says
 * whether the join link was mailed, and the visits call lists it. Other roles and studies without
 * virtual visits see no such action.
 */
import { type APIRequestContext, type Page } from "@playwright/test";
import type { Visit } from "../../core/contracts/visits.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { VISITS_SITE_ID, VISITS_STUDY_ID, apiToken } from "./pages/visit-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { expect, test } from "./support/test.ts";

type Found = { id: number; fname: string; lname: string; site_id: number };

/** A participant of the site, found with the search call. */
async function participantOf(request: APIRequestContext, studyId: number, siteId: number, search: string) {
  const token = await apiToken(request, COORDINATOR);
  const answer = await request.get(
    `/control/studies/${studyId}/sites/${siteId}/clinro_search?search_value=${encodeURIComponent(search)}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(answer.ok()).toBe(true);
  const { response } = (await answer.json()) as { response: Found[] };
  expect(response.length).toBeGreaterThan(0);
  return response[0]!;
}

async function openParticipant(page: Page, username: string, studyId: number, siteId: number, person: Found) {
  await signedInWithKeptSession(page, username, DEMO_PASSWORD);
  await page.goto(`/studies/${studyId}/sites/${siteId}/participants/${person.id}`);
  await expect(new ParticipantHome(page).name(`${person.fname} ${person.lname}`)).toBeVisible();
}

/**
 * A day from today in the browser's time zone: as ISO (2026-11-28) and as typed in the date
 * input, in the browser's short date (en-US: 11/28/2026).
 */
async function dayInBrowser(page: Page, fromToday: number) {
  return page.evaluate((offset) => {
    const day = new Date();
    day.setDate(day.getDate() + offset);
    const pad = (value: number) => String(value).padStart(2, "0");
    return {
      iso: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
      typed: `${pad(day.getMonth() + 1)}/${pad(day.getDate())}/${day.getFullYear()}`,
    };
  }, fromToday);
}

test("a coordinator schedules a recorded visit from the participant's page", async ({ page, request }) => {
  const person = await participantOf(request, VISITS_STUDY_ID, VISITS_SITE_ID, "SCZ");
  await openParticipant(page, COORDINATOR, VISITS_STUDY_ID, VISITS_SITE_ID, person);

  // Opened from the keyboard; Escape closes it and focus returns to the button.
  const open = page.getByRole("button", { name: "Schedule visit" });
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Schedule a virtual visit" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`A video visit with ${person.fname} ${person.lname}.`);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();

  await open.click();
  await expect(dialog).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "schedule-visit", "dialog", { fullPage: false });

  // A wrong duration is said beside its field, and nothing is sent.
  let sent = 0;
  page.on("request", (sentRequest) => {
    if (sentRequest.method() === "POST" && sentRequest.url().includes("/clinro_visits")) sent += 1;
  });
  const duration = dialog.getByLabel("Duration (minutes)");
  await duration.fill("0");
  await dialog.getByRole("button", { name: "Schedule visit" }).click();
  await expect(dialog.getByText("Enter a whole number of minutes from 1 to 480.")).toBeVisible();
  await expect(duration).toHaveAttribute("aria-invalid", "true");
  expect(sent).toBe(0);
  await screenshotAtSizes(page, "schedule-visit", "dialog-error", { fullPage: false });

  // The date input and time picker, not the browser's: a past day cannot be chosen; the time is
  // on the browser language's clock (12 hours in en-US).
  const dateField = dialog.getByRole("textbox", { name: "Date" });
  await expect(dateField).not.toHaveAttribute("type", "date");
  await dateField.fill((await dayInBrowser(page, -1)).typed);
  await dateField.blur();
  await expect(dialog.getByText("Choose today or a later day.")).toBeVisible();
  await expect(dateField).toHaveAttribute("aria-invalid", "true");
  const { iso: date, typed } = await dayInBrowser(page, 1);
  await dateField.fill(typed);
  await expect(dialog.getByText("Choose today or a later day.")).toHaveCount(0);
  await dialog.getByRole("textbox", { name: "Start time" }).fill("2:30 PM");
  await duration.fill("45");
  await dialog.getByRole("switch", { name: "Record this visit" }).check();
  await dialog.getByRole("button", { name: "Schedule visit" }).click();

  await expect(dialog).toHaveCount(0);
  const status = page.getByRole("status").filter({ hasText: "Visit scheduled for" });
  await expect(status).toContainText("(45 min)");
  await expect(status).toContainText(/The join link was emailed to |no email address/);
  expect(sent).toBe(1);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "schedule-visit", "scheduled", { fullPage: false });

  // The visits call lists it, as typed in the browser's time zone.
  const visitTime = await page.evaluate((day) => new Date(`${day}T14:30`).toISOString(), date);
  const token = await apiToken(request, COORDINATOR);
  const answer = await request.get(
    `/control/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/clinro_visits`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  const { visits } = (await answer.json()) as { visits: Visit[] };
  const made = visits.filter(
    (visit) => visit.participant_id === person.id && Date.parse(visit.visit_time) === Date.parse(visitTime),
  );
  expect(made).toHaveLength(1);
  expect(made[0]).toMatchObject({ visit_duration: 45, is_recorded: true, is_adhoc: false });
});

test("no Schedule visit for a clinician who is not a coordinator", async ({ page, request }) => {
  const scz = await participantOf(request, VISITS_STUDY_ID, VISITS_SITE_ID, "SCZ");
  await openParticipant(page, "staff1@demo.test", VISITS_STUDY_ID, VISITS_SITE_ID, scz);
  await expect(page.getByRole("tab", { name: /^To do/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Schedule visit" })).toHaveCount(0);
});

test("no Schedule visit in a study without virtual visits", async ({ page, request }) => {
  const mdd = await participantOf(request, 101, 1011, "MDD");
  await openParticipant(page, COORDINATOR, 101, 1011, mdd);
  await expect(page.getByRole("tab", { name: /^To do/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Schedule visit" })).toHaveCount(0);
});

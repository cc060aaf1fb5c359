/**
 * Another site's pages, opened by their address (a bookmark, a colleague's link) by a clinician
 * who works at one site of the study only: each shows the access-denied panel with what is
 * missing, and the clinician stays signed in (a 403 for something the user lacks is not an
 * ended session). The user is invited as a research site would: Clinical Staff Level 1 at
 * Boston only, the management role left empty (researcher).
 */
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { mailsTo } from "../support/mail-drop.ts";
import { storedUser } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { DEMO_PASSWORD } from "./support/demo.ts";
import { E2E_DATA_DIR } from "./support/e2e-dirs.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";

const PASSWORD = "OneSite&Only42";
const BOSTON = 1011;
const LAKESIDE = 1012;
const NO_PARTICIPANT_ACCESS = "it looks like you don't have access to this participant";
const NO_SITE_ACCESS = "It looks like you don't have access to this site.";

/** Invites a Clinical Staff Level 1 of study 101 at Boston only, and activates the account. */
async function oneSiteClinician(request: APIRequestContext) {
  const login = await request.post("/control/clinro/login", {
    data: { username: "admin@demo.test", password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const email = `one-site-${Date.now().toString(36)}@site.example`;
  const invited = await request.post("/control/users/invitations", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      email,
      name: "Olivia Onesite",
      management_role: "researcher",
      studies: [{ study_id: 101, role: "11", site_ids: [BOSTON] }],
    },
  });
  expect(invited.status()).toBe(201);
  await expect
    .poll(async () => (await mailsTo(E2E_DATA_DIR, email)).length, { timeout: 10_000 })
    .toBeGreaterThan(0);
  const link = (await mailsTo(E2E_DATA_DIR, email)).at(-1)!.links.find((l) => l.includes("/users/activate"))!;
  const activated = await request.post("/control/users/setup_password", {
    data: {
      token: new URL(link).searchParams.get("token"),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      platform_type: "clinro",
    },
  });
  expect(activated.status()).toBe(200);
  return email;
}

/** A participant of Lakeside (study 101), found as the administrator sees the site's list. */
async function lakesideParticipantId(request: APIRequestContext) {
  const login = await request.post("/control/clinro/login", {
    data: { username: "coordinator@demo.test", password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const found = await request.get(`/control/studies/101/sites/${LAKESIDE}/clinro_search?search_value=MDD`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(found.status()).toBe(200);
  const { response } = (await found.json()) as { response: { id: number }[] };
  expect(response.length).toBeGreaterThan(0);
  return response[0]!.id;
}

async function expectStillSignedIn(page: Page, email: string) {
  expect(await storedUser(page)).toMatchObject({ username: email });
  await expect(page.getByText("Consent required, please login and consent to continue.")).toHaveCount(0);
  await expect(page).not.toHaveURL(/\/login/);
}

test("another site's participant and study pages show the access-denied panel and keep the session", async ({
  page,
  request,
}) => {
  const email = await oneSiteClinician(request);
  const participantId = await lakesideParticipantId(request);
  await signedInWithKeptSession(page, email, PASSWORD);

  // A colleague's link to a Lakeside participant: the site is what the clinician lacks.
  await page.goto(`/studies/101/sites/${LAKESIDE}/participants/${participantId}`);
  await expect(page.getByRole("heading", { level: 1, name: NO_SITE_ACCESS })).toBeVisible();
  await expectStillSignedIn(page, email);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "other-site", "participant");

  // The same participant under the clinician's own site: the server refuses the participant.
  await page.goto(`/studies/101/sites/${BOSTON}/participants/${participantId}`);
  await expect(page.getByRole("heading", { level: 1, name: NO_PARTICIPANT_ACCESS })).toBeVisible();
  await expectStillSignedIn(page, email);

  // Lakeside's study pages: the participants list, the pending instruments, the consents.
  for (const pagePath of ["search", "pending", "consents"]) {
    await page.goto(`/studies/101/sites/${LAKESIDE}/${pagePath}`);
    await expect(page.getByRole("heading", { level: 1, name: NO_SITE_ACCESS }), pagePath).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to studies" })).toBeVisible();
    await expectStillSignedIn(page, email);
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "other-site", pagePath);
  }

  // The way on: the studies list, still signed in, with the clinician's own site.
  await page.getByRole("link", { name: "Back to studies" }).click();
  await expect(page).toHaveURL(/\/studies$/);
  await expect(page.getByRole("link", { name: "Boston Clinical Research Center" })).toBeVisible();
  await expectStillSignedIn(page, email);
});

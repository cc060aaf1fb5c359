import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { storedUser } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

/**
 * Consent first (core/contracts/consent-gate.ts) in the browser: MDD-301 asks consent first,
 * so a participant whose main consent is not complete has their instruments locked, with the
 * reason and the way to the consent, on the participant home and on an instrument's own page,
 * online and after a reload without a connection; a consent completed on the device and still
 * waiting to be sent lifts the lock. Each test enrols its own participant (enrolment offers the
 * study's consents), so no other test's signing changes what it sees.
 */
const MDD_301 = 101;
const BOSTON = 1011;
const MAIN_CONSENT = "Main Study Informed Consent";
const NOTICE = "Consent needed before any rating";

type Enrolled = { id: number; name: string; token: string };

async function enrolNewParticipant(page: Page): Promise<Enrolled> {
  const user = await storedUser(page);
  const token = String(user?.token);
  const lname = `Gate-${randomUUID().slice(0, 6)}`;
  const response = await page.request.post(`/control/studies/${MDD_301}/sites/${BOSTON}/participants`, {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    data: {
      client_id: randomUUID(),
      subject_id: `MDD-${lname}`,
      fname: "Noor",
      lname,
      date_of_birth: "1979-05-14",
      gender: "f",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { id: number };
  return { id: body.id, name: `Noor ${lname}`, token };
}

async function signedInCoordinator(page: Page) {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  await page.evaluate(() => navigator.serviceWorker.ready);
}

const homePath = (participantId: number) =>
  `/studies/${MDD_301}/sites/${BOSTON}/participants/${participantId}`;

async function expectLockedHome(page: Page) {
  const home = new ParticipantHome(page);
  await expect(page.getByRole("heading", { level: 2, name: NOTICE })).toBeVisible();
  await expect(page.getByText(`${MAIN_CONSENT} is not complete yet.`)).toBeVisible();
  await expect(page.getByRole("link", { name: `Open ${MAIN_CONSENT}` })).toBeVisible();
  await expect(home.todoTab()).toBeVisible();
  // The instruments are listed, locked, and none opens.
  await expect(home.panel().getByText("HAM-D 17")).toBeVisible();
  await expect(
    home.panel().getByText("(locked: the participant's consent comes first)").first(),
  ).toBeAttached();
  await expect(home.row("HAM-D 17")).toHaveCount(0);
}

test.describe("consent first", () => {
  test("locks a participant's instruments until the consent, with the way to it, online and on an instrument's page", async ({
    page,
  }) => {
    await signedInCoordinator(page);
    const participant = await enrolNewParticipant(page);
    await page.goto(homePath(participant.id));
    await expect(new ParticipantHome(page).name(participant.name)).toBeVisible();
    await expectLockedHome(page);
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "consent-first", "participant-home-locked");

    // An instrument's own page (a bookmark, a colleague's link) shows the lock, not the form.
    // MDD-301 lists forms (the older architecture): each names its instrument and address.
    const forms = await page.request.get(
      `/control/clinro/participants/${participant.id}/instruments?study_id=${MDD_301}`,
      { headers: { Authorization: `Bearer ${participant.token}` } },
    );
    expect(forms.status()).toBe(200);
    const { instruments } = (await forms.json()) as { instruments: { instrument_id: number; url: string }[] };
    const hamd = instruments.find((form) => form.url.endsWith("/ham-d-17"))!;
    await page.goto(`${homePath(participant.id)}/instruments/${hamd.instrument_id}/ham-d-17`);
    await expect(page.getByRole("heading", { level: 1, name: NOTICE })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Next|^Start|^Finish/ })).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "consent-first", "instrument-locked");

    // The way to the consent opens the participant's consent.
    await page.getByRole("link", { name: `Open ${MAIN_CONSENT}` }).click();
    await expect(page).toHaveURL(
      new RegExp(
        `/studies/${MDD_301}/sites/${BOSTON}/consents/\\d+/participants/${participant.id}/version/\\d+$`,
      ),
    );
  });

  test("keeps the lock after a reload without a connection, and lifts it for a consent completed on the device", async ({
    context,
    page,
  }) => {
    await signedInCoordinator(page);
    const participant = await enrolNewParticipant(page);
    await page.goto(homePath(participant.id));
    await expectLockedHome(page);

    await context.setOffline(true);
    await page.reload();
    await expect(new ParticipantHome(page).name(participant.name)).toBeVisible();
    await expectLockedHome(page);

    // A consent signed on this device that completes it, waiting in the outbox (the consent page
    // records that when it queues the signing): the instruments open, offline.
    const consentId = await page
      .getByRole("link", { name: `Open ${MAIN_CONSENT}` })
      .getAttribute("href")
      .then((href) => Number(/\/consents\/(\d+)\//.exec(href ?? "")?.[1]));
    await page.evaluate(
      async ({ participantId, consentId, userId, username }) => {
        await window.clinroOutbox!.enqueueSubmissionWithUploads(
          [],
          {
            kind: "consent",
            label: "Main consent signed offline",
            consent: { id: consentId, completes: true },
            request: {
              method: "POST",
              path: `/control/v2/witness/participant/${participantId}/consent`,
              headers: { version: "010" },
              body: { type: "json", value: { consent_id: consentId } },
            },
          },
          { userId, username, participantId },
        );
      },
      {
        participantId: participant.id,
        consentId,
        userId: Number((await storedUser(page))?.id),
        username: COORDINATOR,
      },
    );
    expect(await page.evaluate(() => window.clinroOutbox!.list())).toEqual([
      expect.objectContaining({
        kind: "consent",
        participantId: participant.id,
        state: "pending",
        consent: { id: consentId, completes: true },
      }),
    ]);
    await expect(page.getByRole("heading", { level: 2, name: NOTICE })).toHaveCount(0);
    await expect(new ParticipantHome(page).row("HAM-D 17")).toBeVisible();
  });
});

import { type Page, type Response } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { storedUser } from "./pages/login-page.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome } from "./pages/participant-pages.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

// Study 103 (GAD-118, forms list) has every participant at site 1031; these tests use
// participants 153 to 163 (not 156 or 162, whose HAM-D is done), one each, so that they do not share instances.
const STUDY = 103;
const SITE = 1031;

/** HAM-D 17 answers by choice position (0 = the first anchor); the anchors score 0, 1, 2... */
const HAMD_CHOICES = [3, 2, 1, 2, 1, 0, 2, 1, 0, 3, 2, 1, 2, 0, 1, 2, 1];
const HAMD_TOTAL = HAMD_CHOICES.reduce((sum, choice) => sum + choice, 0);

/** The instrument's header names the participant, their subject id, the study and the site. */
async function expectRecordContext(page: Page, participantId: number) {
  const user = await storedUser(page);
  const response = await page.request.get(
    `/control/studies/${STUDY}/sites/${SITE}/participants/${participantId}`,
    {
      headers: { Authorization: `Bearer ${String(user?.token)}` },
    },
  );
  const participant = (await response.json()) as { fname: string; lname: string; subject_id: string };
  const permissions = (user?.permissions ?? {}) as Record<
    string,
    { study_name: string; sites: { site_id: number; site_label: string }[] }
  >;
  const study = permissions[String(STUDY)]!;
  const site = study.sites.find((candidate) => candidate.site_id === SITE)!;
  const record = page.getByTestId("record-context");
  await expect(record).toHaveText(
    `Participant: ${participant.fname} ${participant.lname} Subject id: ${participant.subject_id}Study: ${study.study_name}Site: ${site.site_label}`,
  );
}

async function openParticipant(page: Page, participantId: number) {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
  await page.goto(`/studies/${STUDY}/sites/${SITE}/participants/${participantId}`);
  await expect(new ParticipantHome(page).todoTab()).toBeVisible();
}

/** How many steps the instrument's draft, as saved on the device, has shown (0: no draft). */
async function savedDraftSteps(page: Page, participantId: number) {
  const url = new URL(page.url());
  const instrumentId = /\/instruments\/(\d+)\//.exec(url.pathname)?.[1];
  const user = await storedUser(page);
  const key = `${String(user?.id)}:${STUDY}:${participantId}:instrument:${instrumentId}:${url.searchParams.get("instance_id") ?? "new"}`;
  return page.evaluate(async (draftKey) => {
    const draft = (await window.clinroOutbox!.drafts.load(draftKey)) as
      { value: { flow: { shown: string[] } } } | undefined;
    return draft?.value.flow.shown.length ?? 0;
  }, key);
}

/** Answers HAM-D items from `from` (1-based) through `to`, each with its choice of HAMD_CHOICES. */
async function answerHamdItems(page: Page, from: number, to: number) {
  const survey = new SurveyPage(page);
  for (let item = from; item <= to; item++) {
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${item}\\. `) })).toBeFocused();
    await page
      .getByRole("radio")
      .nth(HAMD_CHOICES[item - 1]!)
      .click();
    await survey.next().click();
  }
}

/**
 * A response seen by the page or by the service worker: an outbox item may be sent by either
 * (the worker drains on Background Sync), so responses are watched on the whole context.
 */
function responseTo(page: Page, matches: (response: Response) => boolean) {
  return page.context().waitForEvent("response", { predicate: matches });
}

function eventResponse(page: Page, type: string) {
  return responseTo(
    page,
    (response: Response) =>
      response.url().includes("/control/participants/me/events") &&
      (response.request().postData() ?? "").includes(`"type":"${type}"`),
  );
}

async function history(page: Page, participantId: number) {
  const user = await storedUser(page);
  const response = await page.request.get(
    `/control/participants/${participantId}/instrument_history/clinro`,
    {
      headers: { Authorization: `Bearer ${String(user?.token)}` },
    },
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    instruments: {
      completed: {
        name: string;
        instance_id: number;
        completed_by: string;
        scores: { id: string; final_value: number }[];
      }[];
    };
  };
}

test("HAM-D 17 with known answers stores its total on the server and shows as completed", async ({
  page,
}) => {
  await openParticipant(page, 153);
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("HAM-D 17");
  const instanceId = Number(new URL(page.url()).searchParams.get("instance_id"));
  await expect(survey.title()).toHaveText("Hamilton Depression Rating Scale (17 items)");
  // 1 of (17 items + introduction + the submission step).
  await expect(page.getByText("1 of 19")).toBeVisible();
  // Whose record this is: the participant, subject id, study and site under the title.
  await expectRecordContext(page, 153);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "instruments", "record-context", { fullPage: false });
  await survey.begin().click();

  // A required item: Next waits for an answer; there is no Skip.
  await expect(survey.next()).toBeDisabled();
  await expect(survey.skip()).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await answerHamdItems(page, 1, 17);

  await expect(page.getByRole("heading", { name: "Ready to submit" })).toBeFocused();
  await expect(page.getByText("19 of 19")).toBeVisible();
  await expectNoSeriousViolations(page);
  const submitted = responseTo(page, (response) => response.url().endsWith("/instruments/13/submission"));
  await survey.finish().click();
  const answer = await submitted;
  expect(answer.status()).toBe(201);
  expect(answer.request().headers()["version"]).toBe("010");

  // The toast names the form and the participant, and sits below the navigation bar's badges.
  const toast = page.getByText(/^Instrument submitted\. .+ for .+ \(.+\)\.$/);
  await expect(toast).toBeVisible();
  const toastBox = await toast.boundingBox();
  const navBox = await page.locator(".nav-bar__inner").boundingBox();
  expect(toastBox!.y).toBeGreaterThanOrEqual(navBox!.y + navBox!.height);
  await expect(page).toHaveURL(new RegExp(`/participants/153$`));
  const home = new ParticipantHome(page);
  await expect(home.row("HAM-D 17")).toHaveCount(0);
  await home.completedTab().click();
  await expect(home.panel()).toContainText(/HAM-D 17\s*Completed at \d\d:\d\d by Carmen Ortiz/);
  // Review what was submitted: read-only, with the completer, time, version and scores.
  await home.panel().getByRole("button", { name: "Review HAM-D 17" }).first().click();
  const review = page.getByRole("dialog", { name: "HAM-D 17: submitted" });
  await expect(review).toBeVisible();
  await expect(review).toContainText("Carmen Ortiz");
  await expect(review).toContainText(new RegExp(`${HAMD_TOTAL}`));
  // The answers as submitted: every item, each with the anchor chosen.
  const answers = review.getByRole("region", { name: "Submitted answers" });
  await expect(answers.locator("dt")).toHaveCount(17);
  await expect(answers.locator("dd").first()).not.toHaveText("");
  await expect(answers.getByText("Skipped")).toHaveCount(0);
  await expect(review.getByRole("button", { name: "Close" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "instruments", "submission-review", { fullPage: false });
  await review.getByRole("button", { name: "Close" }).click();
  await expect(review).toHaveCount(0);

  const stored = await history(page, 153);
  const done = stored.instruments.completed.find((item) => item.instance_id === instanceId);
  expect(done?.scores).toEqual([expect.objectContaining({ id: "total", final_value: HAMD_TOTAL })]);
  expect(done?.completed_by).toBe("Carmen Ortiz");
});

test("a reload resumes the instrument where it was, with its answers", async ({ page }) => {
  await openParticipant(page, 154);
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("HAM-D 17");
  await survey.begin().click();
  await answerHamdItems(page, 1, 3);
  await expect(page.getByText("5 of 19")).toBeVisible();
  // The draft's write to IndexedDB starts with each step; a reload in the same millisecond could
  // abort it. A clinician's reload comes later: so does this one.
  await expect.poll(() => savedDraftSteps(page, 154)).toBe(5);

  await page.reload();
  await expect(page.getByRole("heading", { level: 2, name: /^4\. / })).toBeVisible();
  await expect(page.getByText("5 of 19")).toBeVisible();
  // Back shows item 3 with its answer; the later steps are truncated from the shown list.
  await survey.back().click();
  await expect(page.getByRole("heading", { level: 2, name: /^3\. / })).toBeFocused();
  await expect(page.getByRole("radio").nth(HAMD_CHOICES[2]!)).toBeChecked();
  await expect(survey.next()).toBeEnabled();
});

test("quitting asks first, sends a cancelled event and returns to the participant", async ({ page }) => {
  await openParticipant(page, 155);
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("HAM-D 17");
  await survey.begin().click();
  await survey.close().click();
  const dialog = page.getByRole("dialog", { name: "Quit this instrument?" });
  await expect(dialog).toBeVisible();
  await expectNoSeriousViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: /^1\. / })).toBeVisible();

  await survey.close().click();
  const cancelled = eventResponse(page, "cancelled");
  await page.getByRole("dialog").getByRole("button", { name: "Quit" }).click();
  expect((await cancelled).status()).toBe(200);
  await expect(page).toHaveURL(/\/participants\/155$/);
  await expect(new ParticipantHome(page).row("HAM-D 17")).toBeVisible();
});

/** Opens CGI-S for a participant and answers it, up to the submission step. */
async function answerCgiS(page: Page, participantId: number) {
  await openParticipant(page, participantId);
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("CGI-S");
  const instanceId = Number(new URL(page.url()).searchParams.get("instance_id"));
  await survey.choose(/^Markedly ill/);
  await survey.next().click();
  await expect(page.getByRole("heading", { name: "Ready to submit" })).toBeVisible();
  return { survey, instanceId };
}

const isSubmission = (response: Response) => /\/instruments\/\d+\/submission$/.test(response.url());

test("a submission the server cannot be reached for shows the network error, and Retry stores it once", async ({
  page,
  context,
}) => {
  const { survey, instanceId } = await answerCgiS(page, 157);
  // The network fails for the submission only, until Retry is pressed: the outbox's own retries
  // after its backoff (which may come while axe looks at the dialog) fail as the first send did.
  let reachable = false;
  await context.route(/\/instruments\/\d+\/submission$/, (route) =>
    reachable ? route.continue() : route.abort("connectionrefused"),
  );
  await survey.finish().click();
  const modal = page.getByRole("alertdialog", { name: "Network error" });
  await expect(modal).toBeVisible({ timeout: 15_000 });
  await expect(modal).toContainText(
    "There was a problem submitting the clinician instrument, check your internet connection and click the button to try again.",
  );
  await expectNoSeriousViolations(page);

  const submitted = responseTo(page, isSubmission);
  const retry = modal.getByRole("button", { name: "Retry" });
  await expect(retry).toBeEnabled();
  reachable = true;
  await retry.click();
  expect((await submitted).status()).toBe(201);
  await expect(page.getByText("Instrument submitted.")).toBeVisible();
  await expect(page).toHaveURL(/\/participants\/157$/);

  const stored = await history(page, 157);
  expect(stored.instruments.completed.filter((item) => item.instance_id === instanceId)).toHaveLength(1);
});

test("a submission finished offline is sent once the connection is back, and stored once", async ({
  page,
  context,
}) => {
  const { survey, instanceId } = await answerCgiS(page, 161);
  await context.setOffline(true);
  await survey.finish().click();
  await expect(page.getByRole("alertdialog", { name: "Network error" })).toBeVisible({ timeout: 15_000 });

  const submitted = responseTo(page, isSubmission);
  await context.setOffline(false);
  expect((await submitted).status()).toBe(201);
  await expect(page.getByText("Instrument submitted.")).toBeVisible();
  await expect(page).toHaveURL(/\/participants\/161$/);
  const stored = await history(page, 161);
  expect(stored.instruments.completed.filter((item) => item.instance_id === instanceId)).toHaveLength(1);
});

test("an instrument opened once online opens again offline after a reload", async ({ page, context }) => {
  await openParticipant(page, 158);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Controlled by the worker from here on, so the definition goes through its cache.
  await page.reload();
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("HAM-D 17");
  await expect(survey.begin()).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(survey.title()).toHaveText("Hamilton Depression Rating Scale (17 items)");
  await survey.begin().click();
  await expect(page.getByRole("heading", { level: 2, name: /^1\. Depressed mood/ })).toBeFocused();
  await context.setOffline(false);
});

test("an instrument opened once online opens offline for another participant too (another delivery)", async ({
  page,
  context,
}) => {
  await openParticipant(page, 159);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("HAM-D 17");
  await expect(survey.begin()).toBeVisible();

  // Offline, the same instrument for another participant: the address differs by its delivery
  // (?instance_id=), the definition does not.
  await page.goto(`/studies/${STUDY}/sites/${SITE}/participants/160`);
  await expect(new ParticipantHome(page).todoTab()).toBeVisible();
  await context.setOffline(true);
  await survey.openFromParticipantHome("HAM-D 17");
  await expect(survey.title()).toHaveText("Hamilton Depression Rating Scale (17 items)");
  await survey.begin().click();
  await expect(page.getByRole("heading", { level: 2, name: /^1\. Depressed mood/ })).toBeFocused();
  await context.setOffline(false);
});

test.describe("definitions the page cannot use", () => {
  // The definition is answered by the test, not the worker's cache.
  test.use({ serviceWorkers: "block" });

  test("a question of an unknown type renders nothing and sends parsingFailed", async ({ page }) => {
    await page.route("**/control/admin/studies/103/instruments/*/ham-d-17*", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({
          id: "unknown-type",
          type: "CLINRO",
          title: "A definition from a newer portal",
          version: 1,
          order: ["hologram", "mood"],
          questions: {
            hologram: { id: "hologram", type: "hologram", label: "Look at the hologram" },
            mood: { id: "mood", type: "text", label: "How is the mood today?" },
          },
        }),
      }),
    );
    await openParticipant(page, 159);
    const survey = new SurveyPage(page);
    const parsingFailed = eventResponse(page, "parsingFailed");
    await survey.openFromParticipantHome("HAM-D 17");
    const event = await parsingFailed;
    expect(event.status()).toBe(200);
    expect(event.request().postDataJSON()).toEqual([
      expect.objectContaining({
        type: "parsingFailed",
        participant: 159,
        info: expect.objectContaining({ question_id: "hologram", question_type: "hologram" }),
      }),
    ]);
    await expect(page.getByText("Look at the hologram")).toHaveCount(0);
    // Nothing to answer, nothing that holds the flow.
    await survey.next().click();
    await expect(page.getByRole("heading", { level: 2, name: "How is the mood today?" })).toBeFocused();
  });

  test("a definition that does not validate says which question and field are wrong", async ({ page }) => {
    await page.route("**/control/admin/studies/103/instruments/*/ham-d-17*", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({
          id: "broken",
          type: "CLINRO",
          version: 1,
          order: ["mood"],
          questions: { mood: { id: "mood", type: "select_one", label: "Mood", choices_order: ["low"] } },
        }),
      }),
    );
    await openParticipant(page, 163);
    const downloadFailed = eventResponse(page, "downloadFailed");
    await page
      .getByRole("tabpanel")
      .getByRole("button", { name: /^HAM-D 17/ })
      .click();
    await expect(page.getByText(/The instrument's definition is not valid: Question "mood"/)).toBeVisible();
    expect((await downloadFailed).status()).toBe(200);
    await expect(page.getByRole("radio")).toHaveCount(0);
  });

  test("a definition that fails to download stops the loader and sends downloadFailed", async ({ page }) => {
    await page.route("**/control/admin/studies/103/instruments/*/ham-d-17*", (route) =>
      route.abort("failed"),
    );
    await openParticipant(page, 160);
    const downloadFailed = eventResponse(page, "downloadFailed");
    await page
      .getByRole("tabpanel")
      .getByRole("button", { name: /^HAM-D 17/ })
      .click();
    await expect(
      page.getByRole("heading", { name: "The instrument could not be downloaded." }),
    ).toBeVisible();
    await expect(page.getByText("Loading instrument…")).toHaveCount(0);
    expect((await downloadFailed).status()).toBe(200);
    await expectNoSeriousViolations(page);
  });
});

test.describe("an instrument opened by its address", () => {
  // Every request is the page's own: none is answered from the worker's cache.
  test.use({ serviceWorkers: "block" });
  const definitionCall = /\/control\/admin\/studies\/103\/instruments\/\d+\/ham-d-17/;

  test("starts its definition download before the app's code has arrived, and downloads it once", async ({
    page,
  }) => {
    await openParticipant(page, 160);
    const survey = new SurveyPage(page);
    await survey.openFromParticipantHome("HAM-D 17");
    await expect(survey.begin()).toBeVisible();

    const definitionCalls: string[] = [];
    page.on("request", (request) => {
      if (definitionCall.test(request.url())) definitionCalls.push(request.url());
    });
    const definitionRequested = page.waitForRequest(definitionCall);
    // The app's entry is held until the definition has been asked for: only the early script,
    // which does not wait for the app, can ask for it.
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await definitionRequested;
      await route.continue();
    });
    await page.reload();
    await expect(survey.title()).toHaveText("Hamilton Depression Rating Scale (17 items)");
    await expect(survey.begin()).toBeVisible();
    expect(definitionCalls).toHaveLength(1);
    expect(definitionCalls[0]).toMatch(/\?instance_id=\d+$/);
  });

  test("a refused early download stops the loader and sends downloadFailed", async ({ page }) => {
    await openParticipant(page, 160);
    const survey = new SurveyPage(page);
    await survey.openFromParticipantHome("HAM-D 17");
    await page.route(definitionCall, (route) => route.abort("failed"));
    const downloadFailed = eventResponse(page, "downloadFailed");
    await page.reload();
    await expect(
      page.getByRole("heading", { name: "The instrument could not be downloaded." }),
    ).toBeVisible();
    expect((await downloadFailed).status()).toBe(200);
  });
});

test("a clinician whose role may not administer an instrument sees the access-denied panel", async ({
  page,
}) => {
  await signedInWithKeptSession(page, "staff1@demo.test", DEMO_PASSWORD);
  // CGI-S (instrument 2 in study 101) is for Clinical Coordinators only; staff1 is Level 1 there.
  await page.goto("/studies/101/sites/1011/participants/45/instruments/2/cgi-s");
  await expect(
    page.getByRole("heading", {
      level: 1,
      name: "It looks like you don't have permission to administer CGI-S",
    }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Begin" })).toHaveCount(0);
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await page.getByRole("link", { name: "Back to the participant" }).click();
  await expect(page).toHaveURL(/\/participants\/45$/);
});

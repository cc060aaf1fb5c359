/**
 * Show-if between the questions of one screen (spec 02 §4), on other people's forms: LHC-Forms'
 * enableWhen test questionnaires (tests/fixtures/third-party/lforms), imported with `clinro instrument
 * import --from fhir` into the demo's GAD-118 study (103, one site, no consent asked first) of a
 * portal of this file's own. An answer shows the questions it enables on the same screen at
 * once, so every question of enableWhen-test is reached; an answer that hides a question holding
 * an answer asks first, in a real dialog, and the erased answer is never submitted.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { isSubmissionCall, payloadOf } from "./fixtures/kitchen-sink.ts";
import { signInAs } from "./pages/login-page.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";
import { expect, expectNoPolicyViolations, test, watchContentSecurityPolicy } from "./support/test.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/third-party/lforms");
const [STUDY, SITE] = [103, 1031];
const NESTED = {
  file: "q-with-nested-enableWhen.json",
  slug: "nested-enable-when",
  name: "Nested enableWhen",
};
const ENABLE_WHEN = { file: "enableWhen-test.R4.json", slug: "enable-when-test", name: "enableWhen test" };

const PARENT = "Parent controller";
const INNER = "Inner controller";
const DEPENDENT = "Inner dependent (trigger)";

type FhirItem = { text?: string; item?: FhirItem[] };

/** Every item's text in a Questionnaire: what the import makes a question (or a group's heading) of. */
function itemTexts(items: readonly FhirItem[]): string[] {
  return items.flatMap((item) => [...(item.text ? [item.text] : []), ...itemTexts(item.item ?? [])]);
}

test.describe("show-if between the questions of one screen", () => {
  test.describe.configure({ mode: "serial", timeout: 300_000 });
  let server: PortalServer;
  let context: BrowserContext;
  const participants: number[] = [];
  const instrumentIds = new Map<string, number>();

  test.beforeAll(async ({ browser }, testInfo) => {
    // Four starts of a server of its own (the seed, then around each import on PGlite).
    test.setTimeout(300_000);
    server = await createPortalServer(4133 + testInfo.workerIndex, { seed: "demo" });
    // The first start seeds the demo; the embedded database is read with the server stopped.
    await server.start();
    for (const form of [NESTED, ENABLE_WHEN]) {
      const imported = await server.clinro(
        "instrument",
        "import",
        "--from",
        "fhir",
        path.join(fixtures, form.file),
        "--study",
        String(STUDY),
        "--slug",
        form.slug,
        "--name",
        form.name,
      );
      expect(imported.code, imported.stderr).toBe(0);
      const created = /Created instrument (\d+)/.exec(imported.stdout);
      expect(created, imported.stdout).not.toBeNull();
      instrumentIds.set(form.slug, Number(created![1]));
    }
    await server.stop();
    for (const offset of [0, 1]) {
      participants.push(
        await server.count(
          `select id as count from participants where study_id = $1 and site_id = $2 order by id offset ${offset} limit 1`,
          [STUDY, SITE],
        ),
      );
    }
    await server.start();
    context = await browser.newContext({ baseURL: server.url });
    await watchContentSecurityPolicy(context);
  });

  test.afterAll(async () => {
    expectNoPolicyViolations(context);
    await context.close();
    await server.dispose();
  });

  /**
   * Opens the form at its address: an import gives no schedule (one day from enrolment), so the
   * demo's long-enrolled participants have it in no to-do list.
   */
  async function openForm(page: Page, participantId: number, form: typeof NESTED) {
    await page.goto(
      `/studies/${STUDY}/sites/${SITE}/participants/${participantId}/instruments/${instrumentIds.get(form.slug)}/${form.slug}`,
    );
    const survey = new SurveyPage(page);
    await expect(survey.close()).toBeVisible();
    return survey;
  }

  test("an answer shows and hides the questions after it on the same screen, and asks before erasing one", async () => {
    const page = await context.newPage();
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    const survey = await openForm(page, participants[0]!, NESTED);
    const instrumentId = instrumentIds.get(NESTED.slug)!;

    await survey.expectStep(PARENT);
    await survey.choose("Yes");
    await survey.next().click();
    await survey.pass("Conditional group");

    // The group opens with the dependent shown: the inner controller is not "A" yet.
    await survey.expectStep(INNER);
    const inner = survey.question(INNER);
    const dependent = survey.question(DEPENDENT);
    await expect(dependent).toBeVisible();
    await dependent.getByRole("textbox", { name: DEPENDENT }).fill("Headache since Monday");

    // "A" hides the dependent, which holds text: the portal asks first.
    await inner.getByRole("radio", { name: "A", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Erase an answer?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(DEPENDENT);
    await expect(dialog.getByRole("button", { name: "Keep the answer" })).toBeFocused();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "show-if", "confirm-erase", { fullPage: false });

    // Escape keeps the answer: the change is not made, focus is back on the choice pressed.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(inner.getByRole("radio", { name: "A", exact: true })).not.toBeChecked();
    await expect(inner.getByRole("radio", { name: "A", exact: true })).toBeFocused();
    await expect(dependent.getByRole("textbox", { name: DEPENDENT })).toHaveValue("Headache since Monday");

    // Asked again and confirmed: the dependent goes, and its text with it.
    await inner.getByRole("radio", { name: "A", exact: true }).click();
    await dialog.getByRole("button", { name: "Erase and change" }).click();
    await expect(dialog).toBeHidden();
    await expect(dependent).toHaveCount(0);
    await expect(inner.getByRole("radio", { name: "A", exact: true })).toBeChecked();
    await expect(survey.question(INNER)).toBeVisible();

    // "B" shows it again at once, empty, announced, and next in the Tab order.
    await inner.getByRole("radio", { name: "B", exact: true }).click();
    await expect(dependent).toBeVisible();
    await expect(dependent.getByRole("textbox", { name: DEPENDENT })).toHaveValue("");
    await expect(
      page.locator(".survey [aria-live='polite']").filter({ hasText: "Question shown:" }),
    ).toHaveText(`Question shown: ${DEPENDENT}`);
    await expect(survey.nextOrSkip()).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "show-if", "question-appears", { fullPage: false });
    await inner.getByRole("radio", { name: "B", exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect(dependent.getByRole("textbox", { name: DEPENDENT })).toBeFocused();

    // Back to "A" with the dependent empty: hidden without a question, so every question shown
    // is answered and the selection moves on by itself (siblings auto-submit); never submitted.
    await inner.getByRole("radio", { name: "A", exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(survey.submissionHeading()).toBeVisible();
    const answered = page
      .context()
      .waitForEvent("response", (response) => isSubmissionCall(instrumentId)(response.request()));
    await survey.finish().click();
    const response = await answered;
    expect(response.status()).toBe(201);
    const payload = payloadOf(response.request());
    expect(payload.answers.map((record) => record.id)).not.toContain("d1");
    expect(payload.answers.find((record) => record.id === "c1")?.answer).toMatchObject([{ value: "A" }]);
    await page.close();
  });

  /** What a clinician does with a question of enableWhen-test, by its label. */
  type Act = (question: Locator) => Promise<void>;
  const radioOr =
    (choice: string, otherwise: Act): Act =>
    async (question) => {
      const radio = question.getByRole("radio", { name: choice, exact: true });
      if ((await radio.count()) > 0) await radio.click();
      else await otherwise(question);
    };
  const type = (value: string): Act =>
    radioOr(value, (question) => question.getByRole("textbox").fill(value));
  const number = (value: string): Act =>
    radioOr(value, (question) => question.getByRole("spinbutton").fill(value));
  const date =
    (typed: string): Act =>
    async (question) => {
      const radios = question.getByRole("radio");
      if ((await radios.count()) > 0) await radios.first().click();
      else await question.getByRole("textbox").first().fill(typed);
    };
  const time =
    (hour: string, minute: string): Act =>
    async (question) => {
      const radios = question.getByRole("radio");
      if ((await radios.count()) > 0) return radios.first().click();
      await question.getByLabel("Hour", { exact: true }).selectOption(hour);
      await question.getByLabel("Minute", { exact: true }).selectOption(minute);
    };
  const choose =
    (...names: string[]): Act =>
    async (question) => {
      for (const name of names) await question.getByRole("radio", { name, exact: true }).click();
    };
  const check =
    (...names: string[]): Act =>
    async (question) => {
      for (const name of names) await question.getByRole("checkbox", { name, exact: true }).check();
    };

  /**
   * The answers of the first run; the second run answers nothing. On a shared screen several
   * answers follow each other (Q1 Yes then No, Q9 B then A), each showing its own questions.
   */
  const ANSWERS: Record<string, Act[]> = {
    "Q1 Boolean field": [choose("Yes"), choose("No")],
    "Q2 Decimal field": [number("5.6")],
    "Q3 Integer field": [number("5")],
    "Q4 Date field": [date("05/01/2020")],
    "Q5 DateTime field": [
      async (question) => {
        await question.getByLabel("Date", { exact: true }).fill("05/01/2020");
        await question.getByLabel("Hour", { exact: true }).selectOption("09");
        await question.getByLabel("Minute", { exact: true }).selectOption("15");
      },
    ],
    "Q6 Time field": [time("13", "30")],
    "Q7 String field": [type("test")],
    "Q8 Mult-select choice": [check("B", "C")],
    "Q9 simple choice": [choose("B"), choose("A")],
    "Q9a string choice": [type("B")],
    "Q9b integer choice": [number("34")],
    "Q9c date choice": [date("09/01/2022")],
    "Q9d time choice": [time("13", "30")],
  };

  const labelsOnScreen = (page: Page) =>
    page.locator(".survey__step [data-question-label]").allTextContents();

  /** Goes through the form to the submission step, noting every question seen on the way. */
  async function walk(page: Page, survey: SurveyPage, answers: Record<string, Act[]>, seen: Set<string>) {
    const note = async () => {
      for (const label of await labelsOnScreen(page)) seen.add(label.trim());
    };
    for (let steps = 0; steps < 100; steps++) {
      if (await survey.submissionHeading().isVisible()) return;
      await expect(page.locator(".survey__step [data-question-label]:focus")).toHaveCount(1);
      const progress = (await survey.progressText().textContent()) ?? "";
      await note();
      for (const label of await labelsOnScreen(page)) {
        for (const act of answers[label.trim()] ?? []) {
          await act(survey.question(label.trim()));
          await note();
        }
      }
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await survey.nextOrSkip().click();
      await expect(survey.progressText()).not.toHaveText(progress);
    }
    throw new Error("the form did not reach its submission step in 100 steps");
  }

  test("every question of LHC-Forms' enableWhen test is asked, each when its condition holds", async ({
    browser,
  }) => {
    // A browser of its own: signed in afresh, whatever the other test left.
    const own = await browser.newContext({ baseURL: server.url });
    await watchContentSecurityPolicy(own);
    const page = await own.newPage();
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    const questionnaire = JSON.parse(readFileSync(path.join(fixtures, ENABLE_WHEN.file), "utf8")) as {
      item: FhirItem[];
    };
    const everyQuestion = itemTexts(questionnaire.item);
    const seen = new Set<string>();

    // With answers: each answer's questions appear on its screen or the steps after it.
    let survey = await openForm(page, participants[1]!, ENABLE_WHEN);
    await walk(page, survey, ANSWERS, seen);
    // Without: the questions shown while their controller is unanswered.
    await survey.close().click();
    await page.getByRole("dialog").getByRole("button", { name: "Quit", exact: true }).click();
    survey = await openForm(page, participants[1]!, ENABLE_WHEN);
    await walk(page, survey, {}, seen);

    expect(everyQuestion.filter((label) => !seen.has(label))).toEqual([]);
    expectNoPolicyViolations(own);
    await own.close();
  });
});

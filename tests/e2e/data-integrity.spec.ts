/**
 * Five defects that misreported or lost clinical data, each reproduced in Chromium the
 * way it showed in WebKit on an iPad (WebKit's own suite is the cross-engine issue's).
 */
import { type Locator, type Page, type Response } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { participantsOf, type ConsentParticipant } from "../../core/contracts/consent-schemas.ts";
import { ConsentCompletionPage } from "./pages/consent-completion-page.ts";
import { ConsentListPage, ConsentParticipantsPage, storedConsent } from "./pages/consent-pages.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { ParticipantHome, SearchPage } from "./pages/participant-pages.ts";
import { SurveyPage } from "./pages/survey-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const MDD_301 = 101;
const SECOND_SITE = 1012;
const MAIN_CONSENT = "Main Study Informed Consent";
/** Signed by no other test: the drill of defect 5 takes its participants. */
const GENETIC_CONSENT = "Optional Genetic Sub-study Consent";
const GENETIC_PROMPTS = ["This sub-study is optional", "One extra blood sample", "Privacidad"];
const PROMPTS = [
  "Welcome to the MDD-301",
  "Purpose of the study",
  "What happens",
  "Risks and benefits",
  "Resumen en español",
];
const STAFF_SIGNATURE = "Signature of the person obtaining consent";

/**
 * WebKit's private storage (every WebDriver session, Safari's Private Browsing) refuses to store a
 * Blob in IndexedDB; on demand, this page's outbox store refuses every write, as a full disk does.
 */
function emulateWebKitPrivateStorage(page: Page) {
  return page.addInitScript(() => {
    const holdsBlob = (value: unknown, seen = new Set<unknown>()): boolean => {
      if (value instanceof Blob) return true;
      if (typeof value !== "object" || value === null || seen.has(value)) return false;
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return false;
      seen.add(value);
      const inner = value instanceof Map ? [...value.values()] : Object.values(value);
      return inner.some((item) => holdsBlob(item, seen));
    };
    const refusing = window as unknown as { refuseOutboxWrites?: boolean };
    for (const method of ["put", "add"] as const) {
      const original = IDBObjectStore.prototype[method];
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (holdsBlob(value)) {
          throw new DOMException(
            "Error preparing Blob/File data to be stored in object store",
            "UnknownError",
          );
        }
        if (refusing.refuseOutboxWrites && this.transaction.db.name === "clinro-outbox") {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        }
        return original.call(this, value, key);
      };
    }
  });
}

const refuseOutboxWrites = (page: Page, refuse: boolean) =>
  page.evaluate((value) => {
    (window as unknown as { refuseOutboxWrites?: boolean }).refuseOutboxWrites = value;
  }, refuse);

/** The answers file that a click on `exportButton` downloads, as its JSON. */
async function exportedAnswers(page: Page, exportButton: Locator) {
  const download = page.waitForEvent("download");
  await exportButton.click();
  return JSON.parse(
    Buffer.concat(await (await download).createReadStream().then((s) => s.toArray())).toString("utf8"),
  ) as { format: string; answers: { flow: { records: { id: string }[] }; files: unknown } };
}

async function signedIn(page: Page) {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
}

async function consentIdOf(page: Page, title = MAIN_CONSENT) {
  const list = new ConsentListPage(page);
  await list.goto(MDD_301, SECOND_SITE);
  const href = await list.row(title).getByRole("link").getAttribute("href");
  return Number(/\/consents\/(\d+)$/.exec(href ?? "")?.[1]);
}

/** A participant of the second site with this status; `which` keeps tests off each other's. */
async function participantAwaiting(page: Page, consentId: number, status: string, which: number) {
  const body = await new ConsentParticipantsPage(page).goto(MDD_301, SECOND_SITE, consentId);
  const found = participantsOf(body).filter((p) => p.consent_participant_status === status);
  const participant = which >= 0 ? found[which] : found.at(which);
  expect(participant, `a demo participant ${status}`).toBeDefined();
  return participant!;
}

const pathOf = (participant: ConsentParticipant) => ({
  studyId: MDD_301,
  siteId: SECOND_SITE,
  consentId: participant.consent_id,
  participantId: participant.id,
  version: participant.consent_version,
});

const statusOnServer = storedConsent;

const consentPosts = (page: Page, participantId: number) => {
  const posts: Response[] = [];
  page.context().on("response", (response) => {
    if (response.url().endsWith(`/participant/${participantId}/consent`)) posts.push(response);
  });
  return posts;
};

test.describe.configure({ mode: "default" });

test("1. a consent awaiting the clinician cannot be finished without the clinician's signature, and says what comes next", async ({
  page,
}) => {
  await signedIn(page);
  const consentId = await consentIdOf(page);
  const participant = await participantAwaiting(page, consentId, "awaiting_clinro", -1);
  const posts = consentPosts(page, participant.id);
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));
  for (const prompt of PROMPTS) await consent.next(prompt);
  await consent.next("Do you agree to take part");
  await consent.next("Participant signature");
  await consent.next("Statement of the person obtaining consent");
  await expect(consent.heading(STAFF_SIGNATURE)).toBeFocused();

  // The pad is empty: Finish + Close waits, and says what is missing.
  await expect(consent.finishClose()).toBeDisabled();
  const missing = page.getByText(`Not signed yet: “${STAFF_SIGNATURE}”. Sign above to finish.`);
  await expect(missing).toBeVisible();
  await expect(consent.finishClose()).toHaveAccessibleDescription(/Not signed yet/);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "data-integrity", "staff-signature-missing", { fullPage: false });
  await consent.finishClose().click({ force: true });
  expect(posts).toHaveLength(0);

  await consent.mode("Type").click();
  await consent.typedName().fill("Casey Coordinator");
  await consent.sign().click();
  await consent.confirmPassword(DEMO_PASSWORD);
  await expect(consent.manifestation()).toContainText("Consent obtained by");
  await expect(missing).toHaveCount(0);
  await consent.finishClose().click();
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=awaiting_witness$`));
  await expect(new ConsentParticipantsPage(page).signedMessage()).toHaveText(
    /The consent was signed\. Waiting for the witness's signature\./,
  );
  expect((await statusOnServer(page, participant)).status).toBe("awaiting_witness");
  expect(posts.map((response) => response.status())).toEqual([200]);
});

test("5. in storage that refuses Blobs, a drawn signature's consent is queued as bytes and arrives once", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await emulateWebKitPrivateStorage(page);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await signedIn(page);
  const consentId = await consentIdOf(page, GENETIC_CONSENT);
  const participant = await participantAwaiting(page, consentId, "awaiting_participant", 0);
  const posts = consentPosts(page, participant.id);
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));
  for (const prompt of GENETIC_PROMPTS) await consent.next(prompt);
  await consent.survey.choose("Yes, I agree");
  await consent.survey.next().click();
  await expect(consent.heading("Participant signature")).toBeFocused();
  await consent.draw();
  await consent.sign().click();
  await expect(consent.manifestation()).toContainText("Participant");
  await consent.survey.next().click();
  await expect(consent.heading(STAFF_SIGNATURE)).toBeFocused();
  // The draft, holding the drawn signature, was stored too: no alert.
  await expect(page.getByRole("alert").filter({ hasText: "could not be saved" })).toHaveCount(0);
  await consent.mode("Draw").click();
  await consent.draw();
  await consent.sign().click();
  await consent.confirmPassword(DEMO_PASSWORD);
  await expect(consent.manifestation()).toContainText("Consent obtained by");

  // The store now refuses everything: the clinician is told at once, the signatures stay.
  await refuseOutboxWrites(page, true);
  await consent.finishClose().click();
  const refused = page.getByRole("alertdialog", { name: "Not saved on this device" });
  await expect(refused).toBeVisible();
  await expect(refused).toContainText("This device could not store the consent, so it has not been sent.");
  await expect(refused).toContainText("The device said: QuotaExceededError: The quota has been exceeded.");
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "data-integrity", "consent-not-stored", { fullPage: false });
  const exported = await exportedAnswers(page, refused.getByRole("button", { name: "Export the answers" }));
  expect(exported.format).toBe("clinro-answers");
  expect(exported.answers.flow.records.map((record) => record.id)).toContain("clinician_signature");
  expect(JSON.stringify(exported.answers.files)).toContain("base64");
  await refused.getByRole("button", { name: "Back to the answers" }).click();
  await expect(refused).toHaveCount(0);
  await expect(consent.heading(STAFF_SIGNATURE)).toBeVisible();
  await expect(consent.manifestation()).toContainText("Consent obtained by");
  expect(posts).toHaveLength(0);

  // The store takes writes again: Finish + Close queues the consent, its images as bytes.
  await refuseOutboxWrites(page, false);
  await consent.finishClose().click();
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=complete$`), {
    timeout: 30_000,
  });
  await expect(new ConsentParticipantsPage(page).signedMessage()).toHaveText(
    /The consent was signed and is complete\./,
  );
  const held = await statusOnServer(page, participant);
  expect(held.status).toBe("complete");
  expect(held.signatures.map((signature) => signature.role)).toEqual(["participant", "clinro"]);
  expect(posts.map((response) => response.status())).toEqual([200]);
  expect(errors).toEqual([]);
});

test("3. a submission waiting to send shows as such on the to-do list, cannot be started again, and leaves it when delivered", async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  // GAD-118 (forms list), participant 165: no other test opens its instruments.
  const [study, site, participantId] = [103, 1031, 165];
  await signedIn(page);
  await page.goto(`/studies/${study}/sites/${site}/participants/${participantId}`);
  const home = new ParticipantHome(page);
  await expect(home.todoTab()).toBeVisible();
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("CGI-S");
  await survey.choose(/^Markedly ill/);
  await survey.next().click();
  await expect(survey.submissionHeading()).toBeVisible();

  await context.setOffline(true);
  await survey.finish().click();
  const offline = page.getByRole("alertdialog", { name: "Network error" });
  await expect(offline).toBeVisible({ timeout: 15_000 });
  await offline.getByRole("button", { name: "Send later" }).click();
  await expect(page).toHaveURL(new RegExp(`/participants/${participantId}$`));

  // At once, still offline: waiting to send, and not a form to start again.
  const panel = home.panel();
  const waiting = panel.locator(".instrument-row--queued").filter({ hasText: "CGI-S" });
  await expect(waiting).toContainText("Completed · waiting to send");
  await expect(panel.getByRole("button", { name: /^CGI-S/ })).toHaveCount(0);
  await expect(waiting.getByRole("link", { name: "See the queue" })).toHaveAttribute("href", "/outbox");
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "data-integrity", "todo-waiting-to-send", { fullPage: false });

  // Delivered: the lists are read again, without a reload or a new sign-in.
  const delivered = page.context().waitForEvent("response", {
    predicate: (response) => /\/instruments\/\d+\/submission$/.test(response.url()),
  });
  await context.setOffline(false);
  expect((await delivered).status()).toBe(201);
  await expect(waiting).toHaveCount(0, { timeout: 15_000 });
  await expect(panel.getByRole("button", { name: /^CGI-S/ })).toHaveCount(0);
  await home.completedTab().click();
  await expect(home.panel()).toContainText("CGI-S");
});

/**
 * An outbox that takes its time: while the page's flag is up, each write's transaction is kept
 * open (a chain of reads on its store) so that it neither completes nor fails, as an IndexedDB
 * short of storage or blocked by another tab does. Lowering the flag lets it complete.
 */
function stallableOutboxWrites(page: Page) {
  return page.addInitScript(() => {
    const stalling = window as unknown as { stallOutboxWrites?: boolean };
    const original = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const request = original.call(this, value, key);
      if (stalling.stallOutboxWrites && this.transaction.db.name === "clinro-outbox") {
        const keepOpen = () => {
          if (stalling.stallOutboxWrites) this.count().onsuccess = keepOpen;
        };
        keepOpen();
      }
      return request;
    };
  });
}

const stallOutboxWrites = (page: Page, stall: boolean) =>
  page.evaluate((value) => {
    (window as unknown as { stallOutboxWrites?: boolean }).stallOutboxWrites = value;
  }, stall);

test("6. a save on the device that stalls is said after a few seconds, never started twice, and arrives once", async ({
  page,
}) => {
  test.setTimeout(240_000);
  // GAD-118 (forms list), participant 171: no other test opens its instruments.
  const [study, site, participantId] = [103, 1031, 171];
  await stallableOutboxWrites(page);
  await signedIn(page);
  const submissions: Response[] = [];
  page.context().on("response", (response) => {
    if (new RegExp(`/participant/${participantId}/instruments/\\d+/submission$`).test(response.url())) {
      submissions.push(response);
    }
  });
  await page.goto(`/studies/${study}/sites/${site}/participants/${participantId}`);
  const survey = new SurveyPage(page);
  await survey.openFromParticipantHome("CGI-S");
  await survey.choose(/^Mildly ill/);
  await survey.next().click();
  await expect(survey.submissionHeading()).toBeVisible();

  await stallOutboxWrites(page, true);
  await survey.finish().click();
  const notice = page.getByRole("status").filter({ hasText: "Still saving on this device…" });
  await expect(notice).toBeVisible({ timeout: 10_000 });
  await expect(notice).toContainText("keep it open");
  await expect(notice.getByRole("button", { name: "Export the answers" })).toBeVisible();
  // Nothing starts a second save while the first may still complete.
  await expect(survey.finish()).toBeDisabled();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "data-integrity", "instrument-slow-save", { fullPage: false });
  const exported = await exportedAnswers(page, notice.getByRole("button", { name: "Export the answers" }));
  expect(exported.format).toBe("clinro-answers");
  expect(submissions).toHaveLength(0);

  // The device answers after all: the submission is queued once, sent once, and the page goes on.
  await stallOutboxWrites(page, false);
  await expect(page).toHaveURL(new RegExp(`/participants/${participantId}$`), { timeout: 30_000 });
  await expect(notice).toHaveCount(0);
  expect(submissions.map((response) => response.status())).toEqual([201]);
});

test.describe("4. a tap on a row opens that row, in an engine that does not position table rows", () => {
  test.beforeEach(async ({ page }) => {
    await signedIn(page);
  });

  /** WebKit computes `position: static` for table rows whatever the style asks. */
  const likeWebKit = (page: Page) =>
    page.addStyleTag({ content: "tbody tr { position: static !important; }" });

  test("the studies list", async ({ page }) => {
    await likeWebKit(page);
    const rows = page
      .getByRole("table")
      .getByRole("row")
      .filter({ has: page.getByRole("link") });
    await expect(rows).not.toHaveCount(0);
    const first = rows.first();
    const href = await first.getByRole("link").getAttribute("href");
    // The second cell (the study's name) of the first row, well clear of the link.
    await first.getByRole("cell").nth(1).click();
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  });

  test("participant search results and the consent list", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto(MDD_301, SECOND_SITE);
    await likeWebKit(page);
    await search.search("a");
    const rows = search
      .results()
      .getByRole("row")
      .filter({ has: page.getByRole("link") });
    await expect(rows.nth(2)).toBeVisible();
    const second = rows.nth(1);
    const href = await second.getByRole("link").getAttribute("href");
    await second.getByRole("cell").nth(2).click();
    await expect(page).toHaveURL(new RegExp(`${href!}$`));

    const consents = new ConsentListPage(page);
    await consents.goto(MDD_301, SECOND_SITE);
    await likeWebKit(page);
    const consentRows = consents
      .table()
      .getByRole("row")
      .filter({ has: page.getByRole("link") });
    const target = consentRows.first();
    const consentHref = await target.getByRole("link").getAttribute("href");
    await target.getByRole("cell").nth(1).click();
    await expect(page).toHaveURL(new RegExp(`${consentHref!}$`));
  });
});

import { webcrypto } from "node:crypto";
import { type Page, type Response } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import {
  participantsOf,
  type ConsentParticipant,
  type ConsentParticipantsResponse,
} from "../../core/contracts/consent-schemas.ts";
import { ConsentCompletionPage } from "./pages/consent-completion-page.ts";
import { ConsentListPage, ConsentParticipantsPage, storedConsent } from "./pages/consent-pages.ts";
import { OutboxPage } from "./pages/outbox-page.ts";
import { signInAs, storedUser } from "./pages/login-page.ts";
import { mailsTo } from "../support/mail-drop.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { E2E_DATA_DIR } from "./support/e2e-dirs.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const WITNESS = "witness@demo.test";
const MDD_301 = 101;
/** The demo's second MDD-301 site holds participants awaiting the participant (demo seed). */
const SECOND_SITE = 1012;
const MAIN_CONSENT = "Main Study Informed Consent";
const DECISION_AGREE = "Yes, I agree to take part / Sí, acepto participar";
/** The prompts of the main consent before the decision, by the start of their labels. */
const PROMPTS = [
  "Welcome to the MDD-301",
  "Purpose of the study",
  "What happens",
  "Risks and benefits",
  "Resumen en español",
];

// The tests sign real participants, one after another: each takes the first still awaiting the
// participant, or (when it stores nothing) the last.
test.describe.configure({ mode: "default" });

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A response the page or its service worker (which may flush the outbox) received. */
function responseTo(page: Page, matches: (response: Response) => boolean) {
  return page.context().waitForEvent("response", { predicate: matches, timeout: 60_000 });
}

/** The response to a consent event of this type (sent by the page or its service worker). */
function consentEventResponse(page: Page, type: string) {
  return responseTo(
    page,
    (response) =>
      response.url().includes("/control/participants/me/events") &&
      (response.request().postData() ?? "").includes(`"type":"${type}"`) &&
      (response.request().postData() ?? "").includes(`"consent_id":`),
  );
}

async function signedIn(page: Page, username: string) {
  // Through the form: the signature tests count on what a sign-in of their own sets up (the
  // signing verifier, the refused tries).
  await signInAs(page, username, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
}

async function mainConsentId(page: Page) {
  const list = new ConsentListPage(page);
  await list.goto(MDD_301, SECOND_SITE);
  const href = await list.row(MAIN_CONSENT).getByRole("link").getAttribute("href");
  return Number(/\/consents\/(\d+)$/.exec(href ?? "")?.[1]);
}

/** A participant of the second site still awaiting the participant's signature: the first or the last. */
async function awaitingParticipant(page: Page, consentId: number, which: "first" | "last" | number) {
  const body: ConsentParticipantsResponse = await new ConsentParticipantsPage(page).goto(
    MDD_301,
    SECOND_SITE,
    consentId,
  );
  const awaiting = participantsOf(body).filter(
    (p) => p.consent_participant_status === "awaiting_participant",
  );
  // A number counts from the end: -2 is the one before the last. Tests that store nothing (a
  // refused password) take any still awaiting when fewer are left than the number reaches, as
  // the specs running beside this one sign the site's participants too.
  const found =
    which === "first"
      ? awaiting[0]
      : which === "last"
        ? awaiting.at(-1)
        : (awaiting.at(which) ?? awaiting[0]);
  expect(found, "a demo participant awaiting the participant").toBeDefined();
  return found!;
}

const stored = storedConsent;

function pathOf(participant: ConsentParticipant) {
  return {
    studyId: MDD_301,
    siteId: SECOND_SITE,
    consentId: participant.consent_id,
    participantId: participant.id,
    version: participant.consent_version,
  };
}

/** The participant's part on the clinician's tablet: the prompts, the decision, a drawn signature. */
async function participantPart(consent: ConsentCompletionPage) {
  // The coordinator's session walks 9 steps and finishes on the last ('Finish + Close'): no
  // submission step is counted (the progress reaches its end).
  await expect(consent.survey.progressText()).toHaveText("1 of 9");
  for (const prompt of PROMPTS) await consent.next(prompt);
  await expect(consent.heading("Do you agree to take part")).toBeFocused();
  await consent.survey.choose(DECISION_AGREE);
  await consent.survey.next().click();
  await expect(consent.heading("Participant signature")).toBeFocused();
  await expect(consent.mode("Draw")).toBeChecked();
  await expect(consent.sign()).toBeDisabled();
  await consent.draw();
  await expect(consent.sign()).toBeEnabled();
  await consent.sign().click();
  // No password for the participant: the manifestation at once.
  await expect(consent.passwordDialog()).toHaveCount(0);
  await expect(consent.manifestation()).toContainText("Participant consent");
  await expect(consent.manifestation()).toContainText("Printed name");
  await consent.survey.next().click();
  await consent.next("Statement of the person obtaining consent");
  await expect(consent.heading("Signature of the person obtaining consent")).toBeFocused();
}

test("the coordinator and the witness complete the main consent; the completed consent downloads", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const participant = await awaitingParticipant(page, consentId, "first");
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));
  await participantPart(consent);

  // The coordinator's own signature: typed, with the password asked again.
  await expect(consent.mode("Upload image")).toHaveCount(0);
  await consent.mode("Type").click();
  await expect(consent.sign()).toBeDisabled();
  await consent.typedName().fill("Casey Coordinator");
  await expect(consent.sign()).toBeEnabled();
  await consent.sign().click();
  // Checked by the server, which records the refused try.
  const checked = responseTo(page, (response) =>
    response.url().endsWith("/control/v2/signing-password/check"),
  );
  await consent.confirmPassword("WrongPass1!");
  expect((await checked).status()).toBe(422);
  await expect(consent.passwordDialog().getByRole("alert")).toHaveText(
    "The password is not correct. Nothing was signed. Type your password again: 4 tries are left before you are signed out.",
  );
  await consent.confirmPassword(DEMO_PASSWORD);
  await expect(consent.passwordDialog()).toHaveCount(0);
  await expect(consent.manifestation()).toContainText("Consent obtained by");
  // The printed name of a staff signature is the account's name; the typed text is the mark.
  const coordinatorName = String((await storedUser(page))?.name);
  await expect(consent.manifestation()).toContainText(coordinatorName);
  await expect(consent.manifestation()).toContainText("Casey Coordinator");
  // The witness's questions are not the coordinator's: this is the last one, and the progress
  // says so.
  await expect(consent.survey.progressText()).toHaveText("9 of 9");
  await expect(consent.survey.progress()).toHaveAttribute("value", "9");
  await expect(consent.survey.progress()).toHaveAttribute("max", "9");
  const posted = responseTo(page, (response) =>
    response.url().endsWith(`/control/v2/clinro/participant/${participant.id}/consent`),
  );
  await consent.finishClose().click();
  const answer = await posted;
  expect(answer.status()).toBe(200);
  const sent = answer.request().postDataJSON() as { signing?: { password_ciphertext: string } };
  expect(sent.signing?.password_ciphertext).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  expect(JSON.stringify(sent)).not.toContain(DEMO_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=awaiting_witness$`));
  await expect(page.getByRole("status").filter({ hasText: "The consent was signed" })).toHaveText(
    /Waiting for the witness's signature\./,
  );
  const afterCoordinator = await stored(page, participant);
  expect(afterCoordinator.status).toBe("awaiting_witness");
  expect(afterCoordinator.signatures.map((s) => [s.role, s.signature_type])).toEqual([
    ["participant", "draw"],
    ["clinro", "text"],
  ]);

  // The witness: earlier answers read-only, the witness statement and signature through the
  // witness endpoint.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signedIn(page, WITNESS);
  await consent.goto(pathOf(participant));
  for (const prompt of PROMPTS) await consent.next(prompt);
  await expect(consent.heading("Do you agree to take part")).toBeFocused();
  await expect(page.getByRole("radio", { name: DECISION_AGREE })).toBeChecked();
  // The pre-filled decision says whose it is.
  await expect(page.getByTestId("answered-by")).toHaveText(
    `Answered by ${participant.firstname} ${participant.lastname}, the participant`,
  );
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "consent-completion", "witness-prefilled-answer");
  await consent.survey.next().click();
  await expect(consent.heading("Participant signature")).toBeFocused();
  await expect(consent.manifestation()).toContainText("Participant consent");
  await expect(page.getByRole("button", { name: "Sign again" })).toHaveCount(0);
  await consent.survey.next().click();
  await expect(consent.heading("Signature of the person obtaining consent")).toBeFocused();
  await expect(consent.manifestation()).toContainText(coordinatorName);
  await expect(consent.manifestation()).toContainText("Casey Coordinator");
  await consent.survey.next().click();
  await consent.next("Statement of the impartial witness");
  await expect(consent.heading("Impartial witness signature")).toBeFocused();
  // The witness's last step: the progress is full.
  await expect(consent.survey.progressText()).toHaveText(/^(\d+) of \1$/);
  await consent.mode("Type").click();
  await consent.typedName().fill("Wendy Witness");
  await consent.sign().click();
  await consent.confirmPassword(DEMO_PASSWORD);
  await expect(consent.manifestation()).toContainText("Witnessed by");
  const witnessed = responseTo(page, (response) =>
    response.url().endsWith(`/control/v2/witness/participant/${participant.id}/consent`),
  );
  await consent.finishClose().click();
  expect((await witnessed).status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=complete$`));
  expect((await stored(page, participant)).status).toBe("complete");

  // The participant is completed: See consent opens the PDF in the app's viewer, which downloads it.
  const participants = new ConsentParticipantsPage(page);
  await participants.goto(MDD_301, SECOND_SITE, consentId);
  await participants
    .row(participant.id)
    .getByRole("button", { name: /See consent/ })
    .click();
  const viewer = page.getByRole("dialog", { name: new RegExp(`^${MAIN_CONSENT}: `) });
  await expect(viewer).toBeVisible();
  const download = page.waitForEvent("download");
  await viewer.getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
});

test("a consent signed offline arrives once when the network returns", async ({ page, context }) => {
  test.setTimeout(180_000);
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const participant = await awaitingParticipant(page, consentId, "first");
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));
  await participantPart(consent);

  // Offline from the clinician's signature on: the password is checked on the device.
  await context.setOffline(true);
  await consent.mode("Type").click();
  await consent.typedName().fill("Casey Coordinator");
  await consent.sign().click();
  await consent.confirmPassword(DEMO_PASSWORD);
  await expect(consent.manifestation()).toContainText("Consent obtained by");
  await consent.finishClose().click();
  // The signature image's upload goes first: it is the one that fails (spec 02, "Submit").
  const modal = page.getByRole("alertdialog", { name: /^(Network error|Files not uploaded)$/ });
  await expect(modal).toBeVisible({ timeout: 15_000 });
  // The consent's texts, not the clinician instrument's.
  await expect(modal).toContainText(
    /There was a problem (uploading the consent files|submitting the consent)/,
  );
  await expect(modal).not.toContainText("instrument");

  const posted = responseTo(page, (response) =>
    response.url().endsWith(`/control/v2/clinro/participant/${participant.id}/consent`),
  );
  // The failed send is reported once the connection is back, naming the consent (spec 02).
  const submitFailed = consentEventResponse(page, "submitFailed");
  await context.setOffline(false);
  expect((await posted).status()).toBe(200);
  const failedEvent = await submitFailed;
  expect(failedEvent.status()).toBe(200);
  expect(failedEvent.request().postDataJSON()).toEqual([
    expect.objectContaining({
      type: "submitFailed",
      participant: participant.id,
      study_id: MDD_301,
      info: expect.objectContaining({ consent_id: consentId, consent_version: participant.consent_version }),
    }),
  ]);
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}\\?signed=awaiting_witness$`), {
    timeout: 15_000,
  });
  const held = await stored(page, participant);
  expect(held.status).toBe("awaiting_witness");
  // One signing: one participant and one clinician signature, not two of each.
  expect(held.signatures.map((s) => s.role)).toEqual(["participant", "clinro"]);
});

test("the signature question's modes, file checks and accessibility, with screenshots", async ({ page }) => {
  test.setTimeout(180_000);
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const participant = await awaitingParticipant(page, consentId, "last");
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));

  const shoot = (name: string) => screenshotAtSizes(page, "consents", `completion-${name}`);

  await expect(consent.heading("Welcome to the MDD-301")).toBeFocused();
  // Whose record this is: the participant, subject id, study and site.
  const record = `Participant: ${participant.firstname} ${participant.lastname} Subject id: ${participant.subject_id}Study: MDD-301 Depression MaintenanceSite: `;
  await expect(page.getByTestId("record-context")).toHaveText(new RegExp(`^${escapeRegExp(record)}\\S`));
  await consent.share().click();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Email" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot("question");
  await consent.share().click();
  await expect(consent.share()).toBeFocused();
  // Print fetches the blank to sign on paper (a PDF) and prints it from a hidden frame. Headless
  // Chromium crashes printing a PDF, so the frame is caught on its way into the page instead.
  await page.evaluate(() => {
    const append = Element.prototype.append;
    Element.prototype.append = function (this: Element, ...nodes: (Node | string)[]) {
      const frame = nodes.find((node): node is HTMLIFrameElement => node instanceof HTMLIFrameElement);
      if (frame?.src.startsWith("blob:")) {
        document.documentElement.dataset.printedFrame = frame.src;
        return;
      }
      append.apply(this, nodes);
    };
  });
  await consent.share().click();
  const blank = page.waitForResponse((response) => response.url().includes("/control/v2/consent/pdf?"));
  await page.getByRole("button", { name: "Print" }).click();
  const printed = await blank;
  expect(new URL(printed.url()).searchParams.get("pdf_type")).toBe("print_to_sign");
  expect(printed.status()).toBe(200);
  expect(printed.headers()["content-type"]).toBe("application/pdf");
  await expect(page.locator("html")).toHaveAttribute("data-printed-frame", /^blob:/);
  await consent.survey.next().click();

  for (const prompt of PROMPTS.slice(1)) await consent.next(prompt);
  await consent.survey.choose(DECISION_AGREE);
  await consent.survey.next().click();
  await expect(consent.heading("Participant signature")).toBeFocused();
  await expectNoSeriousViolations(page);
  // The empty pad shows where to sign; the hint goes once the pen touches it.
  await expect(page.getByTestId("signature-pad-guide")).toBeVisible();
  await expect(page.getByText("Sign here", { exact: true })).toBeVisible();
  await shoot("signature-empty");
  await consent.draw();
  await expect(page.getByText("Sign here", { exact: true })).toBeHidden();
  await shoot("signature-draw");

  await consent.mode("Type").click();
  await expect(consent.sign()).toBeDisabled();
  await consent.typedName().fill("Ana Ruiz");
  await expect(consent.sign()).toBeEnabled();
  await shoot("signature-type");

  await consent.mode("Camera").click();
  await expect(consent.sign()).toBeDisabled();
  await expect(page.getByRole("button", { name: "Take a photo of the signature" })).toBeVisible();
  await shoot("signature-camera");

  await consent.mode("Upload image").click();
  await expect(consent.sign()).toBeDisabled();
  await consent
    .imageInput()
    .setInputFiles({ name: "signature.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await expect(
    page.getByRole("alert").filter({ hasText: "Sorry, we can't accept this file type." }),
  ).toHaveText("Sorry, we can't accept this file type. Please try with a different type of file.");
  await consent.imageInput().setInputFiles({
    name: "signature.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(2.5 * 1024 * 1024 + 1),
  });
  await expect(page.getByRole("alert").filter({ hasText: "Your image exceeded" })).toHaveText(
    "Your image exceeded 2.5 mb. Please reduce the file size.",
  );
  await expect(consent.sign()).toBeDisabled();
  await consent.imageInput().setInputFiles("server/seed/consents/drawn-signature.png");
  await expect(consent.sign()).toBeEnabled();
  await expect(page.getByRole("img", { name: "The signature to sign with" })).toBeVisible();
  await shoot("signature-image");

  await consent.sign().click();
  await expect(consent.manifestation()).toContainText("Participant consent");
  await expect(consent.manifestation()).toContainText(`${participant.firstname} ${participant.lastname}`);
  await expectNoSeriousViolations(page);
  await shoot("manifestation");

  await consent.survey.next().click();
  await consent.next("Statement of the person obtaining consent");
  await consent.mode("Type").click();
  await consent.typedName().fill("Casey Coordinator");
  await consent.sign().click();
  await expect(consent.passwordDialog()).toBeVisible();
  // The signature dialog says whose consent is signed.
  await expect(consent.passwordDialog().getByTestId("record-context")).toHaveText(
    new RegExp(`^${escapeRegExp(record)}\\S`),
  );
  await expectNoSeriousViolations(page);
  await shoot("password");
  await consent.passwordDialog().getByRole("button", { name: "Cancel" }).click();
  // Cancelled: nothing signed.
  await expect(consent.manifestation()).toHaveCount(0);
  // The last step: the progress reads complete.
  await expect(consent.survey.progressText()).toHaveText("9 of 9");
  await shoot("last-step");

  // Close asks first; Quit returns to the consent page.
  await consent.close().click();
  const quit = page.getByRole("dialog", { name: "Quit this consent?" });
  await expect(quit).toBeVisible();
  await quit.getByRole("button", { name: "Quit" }).click();
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}$`));
});

/** A verifier (as signing-verifier.ts makes it) of another password than the account's. */
async function verifierOf(password: string) {
  const salt = webcrypto.getRandomValues(new Uint8Array(16));
  const material = await webcrypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const iterations = 1000;
  const bits = await webcrypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    256,
  );
  return {
    algorithm: "PBKDF2-SHA-256",
    iterations,
    salt: Buffer.from(salt).toString("base64"),
    hash: Buffer.from(bits).toString("base64"),
  };
}

test("a consent signed offline before a password change keeps the participant's part, and its signer signs again from the queue", async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const participant = await awaitingParticipant(page, consentId, "last");
  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant));
  await participantPart(consent);

  // This device's verifier is of the password the account had when the tablet signed in (it
  // was changed elsewhere since): offline, the tablet accepts it; the server must not.
  const userId = Number((await storedUser(page))?.id);
  const verifier = await verifierOf("NotThePassword1!");
  await page.evaluate(
    ({ key, value }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("clinro-signing");
        open.onerror = () => reject(open.error ?? new Error("open"));
        open.onsuccess = () => {
          const transaction = open.result.transaction("keys", "readwrite");
          transaction.objectStore("keys").put(value, key);
          transaction.oncomplete = () => resolve();
          transaction.onerror = () => reject(transaction.error ?? new Error("put"));
        };
      }),
    { key: `verifier:${userId}`, value: verifier },
  );
  await consent.mode("Type").click();
  await consent.typedName().fill("Casey Coordinator");
  await consent.sign().click();
  await context.setOffline(true);
  await consent.confirmPassword("NotThePassword1!");
  await expect(consent.manifestation()).toContainText("Consent obtained by");
  await context.setOffline(false);
  const refused = responseTo(page, (response) =>
    response.url().endsWith(`/control/v2/clinro/participant/${participant.id}/consent`),
  );
  await consent.finishClose().click();
  const answer = await refused;
  expect(answer.status()).toBe(422);
  expect(((await answer.json()) as { code: string }).code).toBe("signing_password_invalid");
  const refusedBody = answer.request().postDataJSON() as { records: { id: string }[] };
  await expect(page.getByRole("alertdialog", { name: "Submission not accepted" })).toBeVisible();

  // Kept in the queue, with what happened and what to do; nothing stored yet.
  const outbox = new OutboxPage(page);
  await outbox.goto();
  const label = `${MAIN_CONSENT}: ${participant.firstname} ${participant.lastname}`;
  const item = outbox.item(label);
  await expect(item).toContainText("Refused by the server, not retried automatically");
  await expect(item).toContainText("Your password has changed since you signed this consent");
  expect((await stored(page, participant)).signatures).toEqual([]);
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "signing", "queue-sign-again");

  // The signer signs again with the current password, in the same dialog.
  await item.getByRole("button", { name: `Sign again: ${label}` }).click();
  await screenshotAtSizes(page, "signing", "queue-sign-again-dialog");
  await consent.confirmPassword("NotThePassword1!");
  await expect(consent.passwordDialog().getByRole("alert")).toContainText("The password is not correct");
  const resent = responseTo(page, (response) =>
    response.url().endsWith(`/control/v2/clinro/participant/${participant.id}/consent`),
  );
  await consent.confirmPassword(DEMO_PASSWORD);
  const accepted = await resent;
  expect(accepted.status()).toBe(200);
  // The very answers of the refused session, with the new password proof.
  const resentBody = accepted.request().postDataJSON() as { records: { id: string }[]; signing: object };
  expect(resentBody.records).toEqual(refusedBody.records);
  expect(accepted.request().headers()["idempotency-key"]).not.toBe(
    answer.request().headers()["idempotency-key"],
  );
  await expect(outbox.item(label)).toHaveCount(0);
  const held = await stored(page, participant);
  expect(held.status).toBe("awaiting_witness");
  expect(held.signatures.map((s) => s.role)).toEqual(["participant", "clinro"]);
});

test("emailing the consent from its share menu puts a mail with the PDF in the mail drop", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const body: ConsentParticipantsResponse = await new ConsentParticipantsPage(page).goto(
    MDD_301,
    SECOND_SITE,
    consentId,
  );
  const participant = participantsOf(body).find(
    (p) => p.consent_participant_status === "awaiting_participant" && p.email,
  );
  expect(participant, "a demo participant with an email, awaiting the participant").toBeDefined();
  const address = participant!.email!;
  const before = (await mailsTo(E2E_DATA_DIR, address)).length;

  const consent = new ConsentCompletionPage(page);
  await consent.goto(pathOf(participant!));
  const name = `${participant!.firstname} ${participant!.lastname}`;
  // Email asks first, naming the participant and the address; Cancel sends nothing.
  await consent.share().click();
  await page.getByRole("button", { name: "Email" }).click();
  const confirm = page.getByRole("dialog", { name: "Email the consent?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(`${name} (${participant!.subject_id}) at ${address}`);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "consent-completion", "email-confirm", { fullPage: false });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(consent.share()).toBeFocused();

  await consent.share().click();
  await page.getByRole("button", { name: "Email" }).click();
  await confirm.getByRole("button", { name: "Send email" }).click();
  // The toast says to whom.
  await expect(page.getByText(`Email sent to ${name} (${address})`)).toBeVisible();

  await expect
    .poll(async () => (await mailsTo(E2E_DATA_DIR, address)).length, { timeout: 15_000 })
    .toBe(before + 1);
  const mail = (await mailsTo(E2E_DATA_DIR, address)).at(-1)!;
  const pdf = mail.attachments.find((part) => part.contentType === "application/pdf");
  expect(pdf, "the consent PDF attached").toBeDefined();
  expect(pdf!.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
});

test.describe("a consent the page cannot use", () => {
  // The definition is answered by the test, not the worker's cache.
  test.use({ serviceWorkers: "block" });

  test("a consent that fails to download stops the loader and sends downloadFailed", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    const consentId = await mainConsentId(page);
    const participant = await awaitingParticipant(page, consentId, "last");
    await page.route("**/control/v2/clinro/consent?*", (route) => route.abort("failed"));
    const downloadFailed = consentEventResponse(page, "downloadFailed");
    await page.goto(
      `/studies/${MDD_301}/sites/${SECOND_SITE}/consents/${consentId}/participants/${participant.id}/version/${participant.consent_version}`,
    );
    await expect(page.getByRole("heading", { name: "The consent could not be downloaded." })).toBeVisible({
      timeout: 30_000,
    });
    const event = await downloadFailed;
    expect(event.status()).toBe(200);
    expect(event.request().postDataJSON()).toEqual([
      expect.objectContaining({
        type: "downloadFailed",
        participant: participant.id,
        info: expect.objectContaining({
          consent_id: consentId,
          consent_version: participant.consent_version,
        }),
      }),
    ]);
  });

  test("a consent question of an unknown type renders nothing and sends parsingFailed", async ({ page }) => {
    await signedIn(page, COORDINATOR);
    const consentId = await mainConsentId(page);
    const participant = await awaitingParticipant(page, consentId, "last");
    await page.route("**/control/v2/clinro/consent?*", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as {
        definition: { order: string[]; questions: Record<string, unknown> };
      };
      body.definition.questions.hologram = {
        id: "hologram",
        type: "hologram",
        label: "Look at the hologram",
      };
      body.definition.order = ["hologram", ...body.definition.order];
      await route.fulfill({ response, json: body });
    });
    const parsingFailed = consentEventResponse(page, "parsingFailed");
    const consent = new ConsentCompletionPage(page);
    await consent.goto(pathOf(participant));
    const event = await parsingFailed;
    expect(event.status()).toBe(200);
    expect(event.request().postDataJSON()).toEqual([
      expect.objectContaining({
        type: "parsingFailed",
        participant: participant.id,
        info: expect.objectContaining({
          consent_id: consentId,
          question_id: "hologram",
          question_type: "hologram",
        }),
      }),
    ]);
    await expect(page.getByText("Look at the hologram")).toHaveCount(0);
  });
});

test.describe("wrong passwords at a signature", () => {
  const WRONG = "WrongPass1!";
  const FIVE_WRONG =
    "5 wrong passwords at a signature: you were signed out. Sign in again to sign. Nothing was signed.";

  /** The coordinator at the clinician's signature of a participant awaiting theirs. */
  async function atTheClinicianSignature(page: Page, which: number) {
    await signedIn(page, COORDINATOR);
    const consentId = await mainConsentId(page);
    const participant = await awaitingParticipant(page, consentId, which);
    const consent = new ConsentCompletionPage(page);
    await consent.goto(pathOf(participant));
    await participantPart(consent);
    await consent.mode("Type").click();
    await consent.typedName().fill("Casey Coordinator");
    await consent.sign().click();
    return { consent, token: String((await storedUser(page))?.token) };
  }

  test("online: the server checks and records each try, and the fifth ends the session", async ({ page }) => {
    test.setTimeout(240_000);
    const { consent, token } = await atTheClinicianSignature(page, -2);
    const checks: number[] = [];
    page.context().on("response", (response) => {
      if (response.url().endsWith("/control/v2/signing-password/check")) checks.push(response.status());
    });
    for (let left = 4; left >= 1; left--) {
      await consent.confirmPassword(WRONG);
      await expect(consent.passwordDialog().getByRole("alert")).toContainText(
        left === 1 ? "one more wrong password signs you out" : `${left} tries are left`,
      );
      if (left === 3) await screenshotAtSizes(page, "signing", "dialog-wrong-online");
    }
    await consent.confirmPassword(WRONG);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(FIVE_WRONG)).toBeVisible();
    expect(checks).toEqual([422, 422, 422, 422, 429]);
    // The server ended the session: the token no longer works.
    const after = await page.request.get("/control/v2/signing-key", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(after.status()).toBe(401);
  });

  test("offline: the device counts and caps the tries, and queues each one for the server with the next sync", async ({
    page,
    context,
  }) => {
    test.setTimeout(240_000);
    const { consent, token } = await atTheClinicianSignature(page, -3);
    const sent: { path: string; status: number }[] = [];
    context.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith("/control/v2/signing-password/") || path === "/control/clinro/logout") {
        sent.push({ path, status: response.status() });
      }
    });
    await context.setOffline(true);
    for (let left = 4; left >= 1; left--) {
      await consent.confirmPassword(WRONG);
      await expect(consent.passwordDialog().getByRole("alert")).toContainText(
        left === 1 ? "one more wrong password signs you out" : `${left} tries are left`,
      );
    }
    await consent.confirmPassword(WRONG);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(FIVE_WRONG)).toBeVisible();
    // Signed out here; the server does not know yet, and the page says so.
    const notice = page.getByRole("status").filter({ hasText: "You are signed out on this device" });
    await expect(notice).toContainText(
      "your session will be closed on the server as soon as the connection is back",
    );
    await expectNoSeriousViolations(page);
    await screenshotAtSizes(page, "signing", "signed-out-offline");
    expect(sent).toEqual([]);

    // Back online: the five refusals reach the server with the session's token, then its revocation.
    await context.setOffline(false);
    await expect(notice).toHaveCount(0, { timeout: 30_000 });
    expect(sent).toEqual([
      ...Array.from({ length: 5 }, () => ({ path: "/control/v2/signing-password/refusals", status: 200 })),
      { path: "/control/clinro/logout", status: 204 },
    ]);
    const after = await page.request.get("/control/v2/signing-key", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(after.status()).toBe(401);
  });
});

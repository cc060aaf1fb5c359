/**
 * The journeys every engine must pass, written once against EnginePage: sign-in with
 * the service worker and IndexedDB, a tap on a list row, an instrument stored exactly once, a
 * submission queued through a server outage with the shell reloaded while the server is down,
 * a consent signed with drawn signatures (the participant's and the clinician's), and axe on the
 * main routes. What arrived is checked on the server, from Node (portal-api.ts).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { by, type EnginePage } from "./engine-page.ts";
import {
  completionsOf,
  consentParticipants,
  consentStatus,
  COORDINATOR,
  DEMO_PASSWORD,
  type PortalApi,
} from "./portal-api.ts";

const GAD_118 = { studyId: 103, siteId: 1031 };
const MDD_301_SECOND_SITE = { studyId: 101, siteId: 1012 };
const GENETIC_CONSENT = "Optional Genetic Sub-study Consent";
const STAFF_SIGNATURE = "Signature of the person obtaining consent";
const PAD = `//*[@role="img"][@aria-label="Signature area: sign with a finger or a stylus"]`;

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Signs in as the coordinator. On a busy machine the sign-in form may be rendered again after it
 * first shows (the app's first route settling): what was typed then is typed again, as a
 * person would, and checked before Log in is pressed.
 */
export async function signIn(page: EnginePage, baseUrl: string) {
  await page.goto(`${baseUrl}/login`);
  for (let attempt = 1; ; attempt++) {
    await page.type(by.input("Username"), COORDINATOR);
    await page.type(by.input("Password"), DEMO_PASSWORD);
    const typed = await page.evaluate<boolean>(
      `() => document.getElementById("login-username")?.value === ${JSON.stringify(COORDINATOR)} &&
        document.getElementById("login-password")?.value === ${JSON.stringify(DEMO_PASSWORD)}`,
    );
    if (typed) {
      await page.click(by.button("Log in"));
      try {
        await page.waitFor(by.heading("Choose a study and site"), 20_000);
        return;
      } catch (error) {
        if (attempt >= 3 || !(await page.url()).includes("/login")) throw error;
      }
    } else if (attempt >= 3) {
      throw new Error("the sign-in form did not keep what was typed");
    }
  }
}

/** Signs in unless the session is still there (each journey can also run on its own). */
export async function ensureSignedIn(page: EnginePage, baseUrl: string) {
  await page.goto(`${baseUrl}/studies`);
  const signedIn = await page
    .waitFor(by.heading("Choose a study and site"), 5_000)
    .then(() => true)
    .catch(() => false);
  if (!signedIn) await signIn(page, baseUrl);
}

/** The service worker controls the page, and IndexedDB stores and reads back bytes. */
export async function storageWorks(page: EnginePage) {
  return page.evaluate<{ worker: boolean; bytes: number }>(`async () => {
    const registration = await navigator.serviceWorker.ready;
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open("clinro-engine-probe", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("probe");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const done = (request) => new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await done(db.transaction("probe", "readwrite").objectStore("probe").put({ bytes: new ArrayBuffer(8) }, "k"));
    const read = await done(db.transaction("probe").objectStore("probe").get("k"));
    db.close();
    return { worker: registration.active !== null, bytes: read.bytes.byteLength };
  }`);
}

/** Taps the study cell of the second row of the studies list: it opens that row's site. */
export async function tapSecondRow(page: EnginePage, baseUrl: string) {
  await page.goto(`${baseUrl}/studies`);
  const secondRow = "(//table//tbody/tr)[2]";
  await page.waitFor(`${secondRow}//a`);
  const href = await page.evaluate<string>(
    `() => document.evaluate('${secondRow}//a', document, null, 9, null).singleNodeValue.getAttribute("href")`,
  );
  await page.click(`${secondRow}/td[2]`);
  await waitUntil("the second row's page", async () => (await page.url()).endsWith(href));
  return href;
}

/** Opens a participant's CGI-S from the to-do list and answers it, up to the submission step. */
async function answerCgiS(page: EnginePage, baseUrl: string, participantId: number) {
  const { studyId, siteId } = GAD_118;
  await page.goto(`${baseUrl}/studies/${studyId}/sites/${siteId}/participants/${participantId}`);
  await page.click(by.buttonStarting("CGI-S"));
  await page.click(`//label[starts-with(normalize-space(.), "Markedly ill")]`);
  await page.click(by.button("Next"));
  await page.waitFor(by.heading("Ready to submit"));
  return Number(new URL(await page.url()).searchParams.get("instance_id"));
}

export async function instrumentStoredOnce(
  page: EnginePage,
  baseUrl: string,
  api: PortalApi,
  participantId: number,
) {
  const instanceId = await answerCgiS(page, baseUrl, participantId);
  await page.click(by.button("Finish"));
  await page.waitFor(by.text("Instrument submitted."), 20_000);
  return completionsOf(api, participantId, instanceId);
}

export type ServerControl = { stop(): Promise<void>; start(): Promise<void> };

/**
 * Finishes a CGI-S while the server is down: the network error, Send later, the shell reloaded
 * with the server still down (the service worker serves it), then the server back: the outbox
 * sends the submission once. Answers how many the server holds and how many submissions the
 * device still has.
 */
export async function queuedThroughOutage(
  page: EnginePage,
  baseUrl: string,
  server: ServerControl,
  participantId: number,
  apiAfterRestart: () => Promise<PortalApi>,
) {
  const instanceId = await answerCgiS(page, baseUrl, participantId);
  await server.stop();
  let queuedOffline: number;
  try {
    await page.click(by.button("Finish"));
    await page.waitFor(by.dialog("Network error"), 20_000);
    await page.click(by.button("Send later"));
    await page.waitFor(by.text("waiting to send"), 15_000);
    await page.reload();
    await page.waitFor(by.text("waiting to send"), 20_000);
    queuedOffline = await page.evaluate<number>(
      `async () => (await window.clinroOutbox.list()).filter((item) => item.kind === "submission").length`,
    );
  } finally {
    // The journeys after this one need the server, whatever happened here.
    await server.start();
  }
  const api = await apiAfterRestart();
  const stored = await waitUntil(
    "the queued submission on the server",
    async () =>
      (await completionsOf(api, participantId, instanceId)) > 0 &&
      completionsOf(api, participantId, instanceId),
    90_000,
  );
  const left = await waitUntil(
    "the outbox emptied of the submission",
    async () => {
      const count = await page.evaluate<number>(
        `async () => (await window.clinroOutbox.list()).filter((item) => item.kind === "submission").length`,
      );
      return count === 0 ? ("empty" as const) : undefined;
    },
    30_000,
  );
  return { queuedOffline, stored, left };
}

/** The genetic consent of one participant, signed in person: both signatures drawn. */
export async function consentWithDrawnSignatures(
  page: EnginePage,
  baseUrl: string,
  api: PortalApi,
  pick: number,
) {
  const { studyId, siteId } = MDD_301_SECOND_SITE;
  const { consentId, participants } = await consentParticipants(api, GENETIC_CONSENT, studyId, siteId);
  const participant = participants.filter((p) => p.consent_participant_status === "awaiting_participant")[
    pick
  ];
  if (!participant) throw new Error("no participant of the demo awaits the genetic consent");
  await page.goto(
    `${baseUrl}/studies/${studyId}/sites/${siteId}/consents/${consentId}/participants/${participant.id}/version/${participant.consent_version}`,
  );
  for (const prompt of ["This sub-study is optional", "One extra blood sample", "Privacidad"]) {
    await page.waitFor(by.heading(prompt));
    await page.click(by.button("Next"));
  }
  await page.click(`//label[starts-with(normalize-space(.), "Yes, I agree")]`);
  await page.click(by.button("Next"));
  await page.waitFor(by.heading("Participant signature"));
  await page.draw(PAD);
  await page.click(by.button("Sign"));
  await page.waitFor(by.text("Printed name"));
  await page.click(by.button("Next"));
  await page.waitFor(by.heading(STAFF_SIGNATURE));
  await page.draw(PAD);
  await page.click(by.button("Sign"));
  await page.type(`//*[@role="dialog"]${by.input("Password")}`, DEMO_PASSWORD);
  await page.click(`//*[@role="dialog"]//button[normalize-space(.)="Sign"]`);
  await page.waitFor(by.text("Consent obtained by"), 20_000);
  await page.click(by.button("Finish + Close"));
  await waitUntil(
    "the consent page of a signed consent",
    async () => (await page.url()).includes("signed="),
    30_000,
  );
  return consentStatus(api, participant);
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations of the page as it stands. */
export async function seriousViolations(page: EnginePage) {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // The source is part of the script the driver runs (the page's policy forbids eval).
  return page.evaluate<string[]>(`async () => {
    if (!window.axe) { ${axeSource} }
    const results = await window.axe.run(document, { resultTypes: ["violations"] });
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => violation.id + ": " + violation.nodes.map((node) => node.target.join(" ")).join(", "));
  }`);
}

/** The main routes a clinician uses, signed in. */
export function mainRoutes(baseUrl: string) {
  const { studyId, siteId } = GAD_118;
  return [
    { path: `${baseUrl}/studies`, ready: by.heading("Choose a study and site") },
    { path: `${baseUrl}/studies/${studyId}/sites/${siteId}/search`, ready: by.heading("Search participant") },
    { path: `${baseUrl}/studies/${studyId}/sites/${siteId}/participants/170`, ready: `//*[@role="tablist"]` },
    { path: `${baseUrl}/studies/101/sites/1011/consents`, ready: by.heading("Consents") },
    { path: `${baseUrl}/outbox`, ready: by.heading("Storage on this device") },
    { path: `${baseUrl}/inbox`, ready: by.heading("Inbox") },
  ];
}

import { readFile } from "node:fs/promises";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import {
  participantsOf,
  type ConsentParticipant,
  type ConsentParticipantsResponse,
} from "../../core/contracts/consent-schemas.ts";
import type { ConsentParticipantStatus } from "../../core/contracts/consents.ts";
import { ConsentListPage, ConsentParticipantsPage } from "./pages/consent-pages.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { StudyNav } from "./pages/participant-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const WITNESS = "witness@demo.test";
const MDD_301 = 101;
/** The two sites of MDD-301; the demo seed has participants in every status. */
const BOSTON = 1011;
const SECOND_SITE = 1012;
const MAIN_CONSENT = "Main Study Informed Consent";
const GENETIC_CONSENT = "Optional Genetic Sub-study Consent";

async function signedIn(page: Page, username: string) {
  await signedInWithKeptSession(page, username, DEMO_PASSWORD);
}

/** The main consent's id, from the list page's link. */
async function mainConsentId(page: Page) {
  const list = new ConsentListPage(page);
  await list.goto(MDD_301, BOSTON);
  const href = await list.row(MAIN_CONSENT).getByRole("link").getAttribute("href");
  return Number(/\/consents\/(\d+)$/.exec(href ?? "")?.[1]);
}

type Expected = {
  group: string;
  action: "open" | "start" | "start-and-mail" | "pending" | "mail" | "download" | "none";
};

/** The first participant of a status (and, when given, with or without an email). */
function firstWith(body: ConsentParticipantsResponse, status: ConsentParticipantStatus, hasEmail?: boolean) {
  const found = participantsOf(body).find(
    (p) =>
      p.consent_participant_status === status && (hasEmail === undefined || (p.email !== null) === hasEmail),
  );
  expect(
    found,
    `a demo participant ${status}${hasEmail === undefined ? "" : ` email ${hasEmail}`}`,
  ).toBeDefined();
  return found!;
}

/** Status bars in page order, as spec 02 section 4 groups the statuses for each viewer. */
const GROUP_ORDER: {
  title: string;
  statuses: Record<"clinician" | "witness", ConsentParticipantStatus[]>;
}[] = [
  { title: "Your signature is required", statuses: { clinician: ["awaiting_clinro"], witness: [] } },
  {
    title: "Your signature as witness is required",
    statuses: { clinician: [], witness: ["awaiting_witness"] },
  },
  {
    title: "Waiting for another signer",
    statuses: { clinician: ["awaiting_witness"], witness: ["awaiting_clinro"] },
  },
  {
    title: "Waiting for the participant",
    statuses: { clinician: ["awaiting_participant"], witness: ["awaiting_participant"] },
  },
  { title: "Completed", statuses: { clinician: ["complete"], witness: ["complete"] } },
  { title: "Declined", statuses: { clinician: ["declined"], witness: ["declined"] } },
];

function statusBars(body: ConsentParticipantsResponse, viewer: "clinician" | "witness") {
  return GROUP_ORDER.flatMap(({ title, statuses }) => {
    const count = participantsOf(body).filter((p) =>
      statuses[viewer].includes(p.consent_participant_status),
    ).length;
    return count > 0 ? [`${title} Participants: ${count}`] : [];
  });
}

/** The participant's row is in the expected group and offers the expected action. */
async function expectRow(
  page: Page,
  siteId: number,
  participant: ConsentParticipant,
  { group, action }: Expected,
) {
  const consentPage = new ConsentParticipantsPage(page);
  const row = consentPage
    .group(group)
    .getByRole("row")
    .filter({
      has: page.getByRole("cell", { name: String(participant.id), exact: true }),
    });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(participant.lastname);
  await expect(row).toContainText(participant.firstname);
  const cells = row.getByRole("cell");
  // Columns: last name, first name, participant id, subject id, action.
  await expect(cells).toHaveText([
    participant.lastname,
    participant.firstname,
    String(participant.id),
    participant.subject_id,
    /.*/,
  ]);
  const actionCell = cells.nth(4);
  const name = `${participant.firstname} ${participant.lastname}`;
  switch (action) {
    case "open":
      await expect(actionCell.getByRole("link", { name: `Open consent (${name})` })).toHaveAttribute(
        "href",
        `/studies/${MDD_301}/sites/${siteId}/consents/${participant.consent_id}/participants/${participant.id}/version/${participant.consent_version}`,
      );
      break;
    case "start":
    case "start-and-mail":
      // Signed in person on the tablet, beside the mail compose when there is no email.
      await expect(actionCell.getByRole("link", { name: `Start consent (${name})` })).toHaveAttribute(
        "href",
        `/studies/${MDD_301}/sites/${siteId}/consents/${participant.consent_id}/participants/${participant.id}/version/${participant.consent_version}`,
      );
      await expect(actionCell.getByRole("link", { name: `Compose email (${name})` })).toHaveCount(
        action === "start" ? 0 : 1,
      );
      break;
    case "pending":
      await expect(actionCell).toHaveText("Pending");
      await expect(actionCell.getByRole("link")).toHaveCount(0);
      await expect(actionCell.getByRole("button")).toHaveCount(0);
      break;
    case "mail":
      await expect(actionCell.getByRole("link", { name: `Compose email (${name})` })).toHaveAttribute(
        "href",
        "mailto:",
      );
      break;
    case "download":
      await expect(actionCell.getByRole("button", { name: `See consent (${name})` })).toBeEnabled();
      break;
    case "none":
      await expect(actionCell).toHaveText("");
      break;
  }
}

/**
 * Opens the page and checks its groups against the server's statuses, both read again until
 * they agree: other tests sign participants of these sites while this one runs.
 */
async function matchingGroups(
  consent: ConsentParticipantsPage,
  siteId: number,
  consentId: number,
  viewer: Parameters<typeof statusBars>[1],
) {
  let body: Awaited<ReturnType<ConsentParticipantsPage["goto"]>> | undefined;
  await expect(async () => {
    body = await consent.goto(MDD_301, siteId, consentId);
    await expect(consent.statusBars()).toHaveText(statusBars(body, viewer), { timeout: 3_000 });
  }).toPass({ timeout: 45_000 });
  return body!;
}

test("choosing MDD-301 lands on its consent list, whose search filters by title", async ({ page }) => {
  await signedIn(page, COORDINATOR);
  await page.getByRole("link", { name: "Boston Clinical Research Center" }).click();
  await expect(page).toHaveURL(/\/studies\/101\/sites\/1011\/consents$/);
  const list = new ConsentListPage(page);
  await expect(list.heading()).toBeVisible();
  await expect(new StudyNav(page).tab("Consents")).toHaveAttribute("aria-current", "page");

  // Name, date deployed (DD-MMM-YYYY) and a chevron.
  // Name and date sort (their header buttons carry an arrow hidden from screen readers).
  await expect(page.getByRole("columnheader")).toHaveText([/^Name/, /^Date deployed/, "Open"]);
  const nameHeader = page.getByRole("columnheader", { name: "Name", exact: true });
  await expect(nameHeader).toHaveAttribute("aria-sort", "none");
  await nameHeader.getByRole("button").click();
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(list.row(MAIN_CONSENT)).toContainText(/\d\d-[A-Z][a-z]{2}-\d{4}/);
  await expect(list.row(GENETIC_CONSENT)).toBeVisible();
  await expect(list.clear()).toBeDisabled();
  await expectNoSeriousViolations(page);

  // Case-insensitive substring of the title.
  await list.box().fill("GENETIC sub");
  await expect(list.row(GENETIC_CONSENT)).toBeVisible();
  await expect(list.row(MAIN_CONSENT)).toHaveCount(0);
  await expect(list.clear()).toBeEnabled();

  await list.box().fill("no such consent");
  await expect(list.noMatches()).toBeVisible();
  await expect(list.table()).toHaveCount(0);

  // A blank text keeps Clear disabled and shows everything.
  await list.box().fill("   ");
  await expect(list.clear()).toBeDisabled();
  await expect(list.row(MAIN_CONSENT)).toBeVisible();
  await expect(list.row(GENETIC_CONSENT)).toBeVisible();

  await list.box().fill("informed");
  await list.clear().click();
  await expect(list.box()).toHaveValue("");
  await expect(list.row(GENETIC_CONSENT)).toBeVisible();

  // A click on the row opens the consent; its back link returns to the list.
  await list.row(MAIN_CONSENT).click();
  await expect(page).toHaveURL(/\/studies\/101\/sites\/1011\/consents\/\d+$/);
  const consent = new ConsentParticipantsPage(page);
  await expect(consent.heading(MAIN_CONSENT)).toBeVisible();
  await new StudyNav(page).backLink("Consents search all").click();
  await expect(list.heading()).toBeVisible();
});

test("the coordinator sees the participants grouped, with each group's action, and searches them", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const consent = new ConsentParticipantsPage(page);

  const boston = await matchingGroups(consent, BOSTON, consentId, "clinician");
  await expectRow(page, BOSTON, firstWith(boston, "awaiting_clinro"), {
    group: "Your signature is required",
    action: "open",
  });
  await expectRow(page, BOSTON, firstWith(boston, "complete"), { group: "Completed", action: "download" });
  await expectRow(page, BOSTON, firstWith(boston, "declined"), { group: "Declined", action: "none" });
  await expectNoSeriousViolations(page);

  // Search: first name, last name, subject id or participant id, case-insensitive.
  const someone = participantsOf(boston).find((p) => p.subject_id !== "")!;
  await consent.box().fill(someone.subject_id.toLowerCase());
  // Subject ids are unique: one row is left.
  await expect(page.locator("main tbody tr")).toHaveCount(1);
  await expect(consent.row(someone.id)).toBeVisible();
  await consent.box().fill(someone.lastname.toUpperCase());
  await expect(consent.row(someone.id)).toBeVisible();
  await consent.box().fill(` ${someone.firstname.toLowerCase()} `);
  await expect(consent.row(someone.id)).toBeVisible();
  await consent.box().fill(String(someone.id));
  await expect(consent.row(someone.id)).toBeVisible();
  await consent.box().fill("zzz-nobody");
  await expect(consent.noMatches()).toBeVisible();
  await expect(consent.statusBars()).toHaveCount(0);
  await consent.box().fill("  ");
  await expect(consent.clear()).toBeDisabled();
  await expect(page.locator("main tbody tr")).toHaveCount(participantsOf(boston).length);

  // The second site: who waits on the witness is pending for a clinician; who waits on the
  // participant is offered Start consent (signed in person on the tablet), and the mail compose
  // beside it when they have no email.
  const second = await matchingGroups(consent, SECOND_SITE, consentId, "clinician");
  await expectRow(page, SECOND_SITE, firstWith(second, "awaiting_witness"), {
    group: "Waiting for another signer",
    action: "pending",
  });
  const withEmail = firstWith(second, "awaiting_participant", true);
  await expectRow(page, SECOND_SITE, withEmail, {
    group: "Waiting for the participant",
    action: "start",
  });
  await expectRow(page, SECOND_SITE, firstWith(second, "awaiting_participant", false), {
    group: "Waiting for the participant",
    action: "start-and-mail",
  });
  await expectNoSeriousViolations(page);
  await consent.group("Waiting for the participant").scrollIntoViewIfNeeded();
  await screenshotAtSizes(page, "consents", "start-consent");

  // Start consent opens the consent completion at the participant's part.
  await consent
    .row(withEmail.id)
    .getByRole("link", { name: /^Start consent/ })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`/consents/${consentId}/participants/${withEmail.id}/version/${withEmail.consent_version}$`),
  );
  await expect(page.getByRole("button", { name: "Close the consent" })).toBeVisible();
});

test("the witness sees the clinician's signatures as pending and signs those awaiting a witness", async ({
  page,
}) => {
  await signedIn(page, WITNESS);
  const consentId = await mainConsentId(page);
  const consent = new ConsentParticipantsPage(page);

  const boston = await matchingGroups(consent, BOSTON, consentId, "witness");
  await expect(consent.group("Your signature is required")).toHaveCount(0);
  await expectRow(page, BOSTON, firstWith(boston, "awaiting_clinro"), {
    group: "Waiting for another signer",
    action: "pending",
  });
  await expectRow(page, BOSTON, firstWith(boston, "complete"), { group: "Completed", action: "download" });

  const second = await matchingGroups(consent, SECOND_SITE, consentId, "witness");
  await expect(consent.statusBars().first()).toHaveText(/^Your signature as witness is required /);
  // A witness does not take the participant's signature: no Start consent, the spec's actions.
  await expectRow(page, SECOND_SITE, firstWith(second, "awaiting_participant", true), {
    group: "Waiting for the participant",
    action: "none",
  });
  await expectRow(page, SECOND_SITE, firstWith(second, "awaiting_participant", false), {
    group: "Waiting for the participant",
    action: "mail",
  });
  const awaitingWitness = firstWith(second, "awaiting_witness");
  await expectRow(page, SECOND_SITE, awaitingWitness, {
    group: "Your signature as witness is required",
    action: "open",
  });
  await expectNoSeriousViolations(page);

  // The button opens the consent completion of that participant and version.
  await consent
    .row(awaitingWitness.id)
    .getByRole("link", { name: /^Open consent/ })
    .click();
  await expect(page).toHaveURL(
    new RegExp(
      `/consents/${consentId}/participants/${awaitingWitness.id}/version/${awaitingWitness.consent_version}$`,
    ),
  );
});

test("arriving from a finished consent says what it achieved and who is next, until dismissed", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const consent = new ConsentParticipantsPage(page);
  await consent.goto(MDD_301, BOSTON, consentId, "?signed=awaiting_witness");
  await expect(consent.signedMessage()).toHaveText(
    /The consent was signed\. Waiting for the witness's signature\./,
  );
  // A status the page does not know says nothing.
  await consent.goto(MDD_301, BOSTON, consentId, "?signed=1");
  await expect(consent.signedMessage()).toHaveCount(0);
  await consent.goto(MDD_301, BOSTON, consentId, "?signed=complete");
  await expect(consent.signedMessage()).toHaveText(/The consent was signed and is complete\./);
  await consent.signedMessage().getByRole("button", { name: "Dismiss" }).click();
  await expect(page).toHaveURL(new RegExp(`/consents/${consentId}$`));
  await expect(consent.signedMessage()).toHaveCount(0);
});

test("'see consent' opens the completed consent in the PDF viewer, with download and print", async ({
  page,
}) => {
  await signedIn(page, COORDINATOR);
  const consentId = await mainConsentId(page);
  const consent = new ConsentParticipantsPage(page);
  const boston = await consent.goto(MDD_301, BOSTON, consentId);
  const completed = participantsOf(boston).find(
    (p) => p.consent_participant_status === "complete" && p.subject_id !== "",
  )!;
  await consent
    .row(completed.id)
    .getByRole("button", { name: /^See consent/ })
    .click();
  // The app's viewer, not a silent download: the pages drawn, named for the participant.
  const viewer = page.getByRole("dialog", {
    name: `${MAIN_CONSENT}: ${completed.firstname} ${completed.lastname}`,
  });
  await expect(viewer).toBeVisible();
  await expect(viewer).toContainText(`(${completed.subject_id})`);
  await expect(viewer.locator(".pdf-question__page canvas").first()).toBeVisible({ timeout: 30_000 });
  expect(
    await viewer
      .locator(".pdf-question__page canvas")
      .first()
      .evaluate((c: HTMLCanvasElement) => c.width),
  ).toBeGreaterThan(0);
  await expect(viewer.getByRole("button", { name: "Print" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "consents", "see-consent", { fullPage: false });
  const downloaded = page.waitForEvent("download");
  await viewer.getByRole("button", { name: "Download" }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe(
    `Main-Study-Informed-Consent-v${completed.consent_version}-${completed.subject_id}.pdf`,
  );
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await viewer.getByRole("button", { name: "Close" }).click();
  await expect(viewer).toHaveCount(0);
  await expect(consent.row(completed.id).getByRole("button", { name: /^See consent/ })).toBeFocused();
});

import { expect, type Page } from "@playwright/test";
import type {
  ConsentDefinitionResponse,
  ConsentParticipantsResponse,
} from "../../../core/contracts/consent-schemas.ts";
import { storedUser } from "./login-page.ts";

/** The consent search list: /studies/{studyId}/sites/{siteId}/consents. */
export class ConsentListPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Consents" });
  readonly box = () => this.page.getByRole("searchbox", { name: "Search consents by name" });
  readonly clear = () => this.page.getByRole("button", { name: "Clear" });
  readonly table = () => this.page.getByRole("table", { name: "Consents of this site" });
  readonly row = (title: string) => this.table().getByRole("row").filter({ hasText: title });
  readonly noMatches = () => this.page.getByText("No matches found");

  async goto(studyId: number, siteId: number) {
    await this.page.goto(`/studies/${studyId}/sites/${siteId}/consents`);
    await expect(this.heading()).toBeVisible();
  }
}

/** The participants of one consent: /studies/{studyId}/sites/{siteId}/consents/{consentId}. */
export class ConsentParticipantsPage {
  constructor(private readonly page: Page) {}

  readonly heading = (title: string) => this.page.getByRole("heading", { level: 1, name: title });
  readonly box = () => this.page.getByRole("searchbox", { name: "Search participants" });
  readonly clear = () => this.page.getByRole("button", { name: "Clear" });
  /** The groups' status bars, in page order. */
  readonly statusBars = () => this.page.locator("main section").getByRole("heading", { level: 2 });
  /** A group's section, named by its status bar: its title and how many participants it holds. */
  readonly group = (title: string) =>
    this.page.getByRole("region", { name: new RegExp(`^${title} Participants: \\d+$`) });
  /** A participant's row, by the participant id column. */
  readonly row = (participantId: number) =>
    this.page
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell", { name: String(participantId), exact: true }) });
  readonly noMatches = () => this.page.getByText("No matches found");
  /** What the consent session that led here achieved (a status with its Dismiss button). */
  readonly signedMessage = () =>
    this.page.getByRole("status").filter({ has: this.page.getByRole("button", { name: "Dismiss" }) });

  /**
   * Opens the page and returns what the server answers for it, so a test can check the groups
   * against the server's statuses. Read from the server directly: the page itself may answer from
   * its persisted query cache after a reload and send no request at all.
   */
  async goto(studyId: number, siteId: number, consentId: number, search = "") {
    await this.page.goto(`/studies/${studyId}/sites/${siteId}/consents/${consentId}${search}`);
    const user = await storedUser(this.page);
    const response = await this.page.request.get(
      `/control/v2/clinro/me/consents/${consentId}?site_id=${siteId}`,
      {
        headers: { Authorization: `Bearer ${String(user?.token)}` },
      },
    );
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as ConsentParticipantsResponse;
    await expect(this.heading(body.title)).toBeVisible();
    return body;
  }
}

/** What the server holds for one participant of a consent: the definition call with the user's token. */
export async function storedConsent(
  page: Page,
  participant: { consent_id: number; consent_version: number; id: number },
): Promise<ConsentDefinitionResponse> {
  const user = await storedUser(page);
  const response = await page.request.get(
    `/control/v2/clinro/consent?consent_id=${participant.consent_id}&version=${participant.consent_version}&ptp_id=${participant.id}`,
    { headers: { Authorization: `Bearer ${String(user?.token)}`, version: "010" } },
  );
  expect(response.ok()).toBe(true);
  return (await response.json()) as ConsentDefinitionResponse;
}

import { expect, type Page } from "@playwright/test";

/** The study row of the navigation bar. */
export class StudyNav {
  constructor(private readonly page: Page) {}

  readonly region = () => this.page.getByRole("navigation", { name: "Study" });
  /** A tab by its text; the Consents tab's name may end with its missing-consents indication. */
  readonly tab = (name: string) =>
    this.region().getByRole("link", {
      name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(consents missing\\))?$`),
    });
  /** The missing-consents dot of the Consents tab. */
  readonly consentsDot = () => this.tab("Consents").locator(".study-nav__dot");
  readonly backLink = (name: string) => this.region().getByRole("link", { name });
}

/** Participant search: /studies/{studyId}/sites/{siteId}/search. */
export class SearchPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Search participant" });
  readonly box = () => this.page.getByRole("searchbox", { name: "Name or subject id" });
  readonly submit = () => this.page.getByRole("button", { name: "Search" });
  readonly results = () => this.page.getByRole("table");
  readonly countHeading = () => this.page.getByRole("heading", { level: 2 });

  async goto(studyId: number, siteId: number) {
    await this.page.goto(`/studies/${studyId}/sites/${siteId}/search`);
    await expect(this.heading()).toBeVisible();
  }

  async search(text: string) {
    await this.box().fill(text);
    await this.submit().click();
  }
}

/** Participant home: /studies/{studyId}/sites/{siteId}/participants/{participantId}. */
export class ParticipantHome {
  constructor(private readonly page: Page) {}

  readonly name = (name: string) => this.page.getByRole("heading", { level: 1, name });
  readonly tab = (name: RegExp) => this.page.getByRole("tab", { name });
  readonly todoTab = () => this.tab(/^To do/);
  readonly completedTab = () => this.tab(/^Completed/);
  readonly panel = () => this.page.getByRole("tabpanel");
  readonly row = (name: string) => this.panel().getByRole("button", { name: new RegExp(`^${name}`) });
}

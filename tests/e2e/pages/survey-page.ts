import { expect, type Page } from "@playwright/test";

/**
 * The instrument route, as a clinician sees it: one step at a time, a progress bar, a close
 * button, and a footer with Back and Next, Skip, Begin or Finish.
 */
export class SurveyPage {
  constructor(private readonly page: Page) {}

  readonly title = () => this.page.getByRole("heading", { level: 1 });
  readonly progress = () => this.page.getByRole("progressbar", { name: "Progress" });
  readonly close = () => this.page.getByRole("button", { name: "Close the instrument" });
  readonly back = () => this.page.getByRole("button", { name: "Back", exact: true });
  readonly next = () => this.page.getByRole("button", { name: "Next", exact: true });
  readonly skip = () => this.page.getByRole("button", { name: "Skip", exact: true });
  readonly begin = () => this.page.getByRole("button", { name: "Begin", exact: true });
  readonly finish = () => this.page.getByRole("button", { name: "Finish", exact: true });
  /** The question shown now, by the text of its label. */
  readonly question = (label: string | RegExp) => this.page.getByRole("region", { name: label });
  readonly focusedLabel = () => this.page.locator("[data-question-label]:focus");

  /** Opens a to-do row of the participant home and waits for the first step. */
  async openFromParticipantHome(rowName: string) {
    const escaped = rowName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await this.page
      .getByRole("tabpanel")
      .getByRole("button", { name: new RegExp(`^${escaped}`) })
      .click();
    await expect(this.page).toHaveURL(/\/instruments\/\d+\/[^/?]+\?instance_id=\d+$/);
    await expect(this.close()).toBeVisible();
  }

  /** The "n of m" text next to the progress bar. */
  readonly progressText = () => this.page.locator(".survey__progress").getByText(/^\d+ of \d+$/);
  /** The footer's forward button, whichever it reads: Next or Skip. */
  readonly nextOrSkip = () => this.page.getByRole("button", { name: /^(Next|Skip)$/ });
  /** The heading of a question (level 2 on a question step), by its exact text. */
  readonly questionHeading = (label: string) =>
    this.page.getByRole("heading", { level: 2, name: label, exact: true });
  /** The heading of the submission step. */
  readonly submissionHeading = () => this.page.getByRole("heading", { level: 2, name: "Ready to submit" });

  /** Waits for the step of a question: shown, and its heading holds the focus. */
  async expectStep(label: string) {
    await expect(this.page.getByRole("region", { name: label, exact: true })).toBeVisible();
    await expect(this.questionHeading(label)).toBeFocused();
  }

  /** Moves on from a question left unanswered (Skip, or Next for a prompt or pdf). */
  async pass(label: string) {
    await this.expectStep(label);
    await this.nextOrSkip().click();
  }

  /** Chooses a radio (select one, likert, rating scale) by its accessible name. */
  async choose(name: string | RegExp) {
    await this.page.getByRole("radio", { name, exact: typeof name === "string" }).click();
  }
}

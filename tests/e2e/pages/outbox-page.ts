import { expect, type Page } from "@playwright/test";

/** The queue review page (/outbox) and the navigation bar's pending badge. */
export class OutboxPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Queued uploads" });
  /** The badge's accessible name says what waits, e.g. "Waiting to be sent: 1 form and 2 updates". */
  readonly badge = () => this.page.getByRole("link", { name: /^Waiting to be sent: / });
  readonly retryAll = () => this.page.getByRole("button", { name: "Retry all" });
  readonly emptyState = () => this.page.getByText("Nothing is waiting to be sent");
  readonly group = (name: string | RegExp) =>
    this.page
      .locator("section.outbox-group")
      .filter({ has: this.page.getByRole("heading", { level: 2, name }) });
  readonly item = (label: string) =>
    this.page
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("heading", { level: 3, name: label }) });

  /** Opens the page through the badge, as a clinician would (works offline: no page load). */
  async openFromBadge() {
    await this.badge().click();
    await expect(this.heading()).toBeVisible();
  }

  async goto() {
    await this.page.goto("/outbox");
    await expect(this.heading()).toBeVisible();
  }
}

/** Writes through the page's outbox, as a screen would (window.clinroOutbox). */
export function enqueueEvents(page: Page, events: unknown[], label: string, participantId?: number) {
  return page.evaluate(
    ({ events, label, participantId }) => window.clinroOutbox!.enqueueEvents(events, label, participantId),
    { events, label, participantId },
  );
}

export function queuedItems(page: Page) {
  return page.evaluate(() => window.clinroOutbox!.list());
}

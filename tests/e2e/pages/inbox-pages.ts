import { expect, type Locator, type Page } from "@playwright/test";

/** /inbox: the announcements list, its items, the empty state and the onboarding card. */
export class InboxPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { name: "Inbox", level: 1 });
  readonly list = () => this.page.getByRole("list", { name: "Announcements" });
  readonly items = () => this.list().getByRole("listitem");
  /** The disclosure button of the announcement with this title. */
  readonly toggle = (title: string) => this.list().getByRole("button", { name: new RegExp(escape(title)) });
  readonly item = (title: string): Locator =>
    this.items().filter({ has: this.page.getByRole("button", { name: new RegExp(escape(title)) }) });
  readonly unreadToggles = () => this.list().getByRole("button", { name: /^Unread:/ });
  readonly onboardingCard = () => this.page.getByRole("region", { name: "News from your study teams" });
  readonly writeLink = () => this.page.getByRole("link", { name: "Write an announcement" });
  /** The navigation bar's Inbox entry, and its unread dot. */
  readonly navLink = () =>
    this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  readonly navDot = () => this.page.getByTestId("inbox-unread-dot");

  async goto() {
    await this.page.goto("/inbox");
    await expect(this.heading()).toBeVisible();
  }
}

/** /inbox/new: the announcement form. */
export class WriteAnnouncementPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { name: "Write an announcement", level: 1 });
  readonly title = () => this.page.getByLabel("Title");
  readonly study = () => this.page.getByLabel("Study");
  readonly sites = () => this.page.getByLabel("Sites");
  readonly message = () => this.page.getByRole("textbox", { name: "Message" });
  readonly send = () => this.page.getByRole("button", { name: "Send announcement" });
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

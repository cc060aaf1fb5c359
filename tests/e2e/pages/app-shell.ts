import type { Page } from "@playwright/test";

/** The navigation bar and its user menu. */
export class AppShell {
  constructor(private readonly page: Page) {}

  async logout() {
    await this.page.getByRole("button", { name: /Carmen Ortiz|Iris Novak|Farid Haddad/ }).click();
    await this.page.getByRole("button", { name: "Log out" }).click();
  }
}

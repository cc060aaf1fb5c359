import { expect, type Page } from "@playwright/test";

/** The navigation bar and its user menu. */
export class AppShell {
  constructor(private readonly page: Page) {}

  /** Logs out from the user menu, and waits until the app has signed out (the sign-in page). */
  async logout() {
    await this.page.getByRole("button", { name: /Carmen Ortiz|Iris Novak|Farid Haddad/ }).click();
    await this.page.getByRole("button", { name: "Log out" }).click();
    // The menu's action runs after the click returns: a navigation right away could still find
    // the session, and the sign-in page would send it back to the studies.
    await expect(this.page).toHaveURL(/\/login/);
  }
}

import { expect, type Page } from "@playwright/test";

/** /users/profile */
export class ProfilePage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Your profile" });
  readonly name = () => this.page.getByLabel("Name", { exact: true });
  readonly email = () => this.page.getByLabel("Email", { exact: true });
  readonly smsAlerts = () => this.page.getByRole("switch", { name: "Receive SMS alerts" });
  readonly country = () => this.page.getByLabel("Country code");
  readonly phone = () => this.page.getByLabel("Number", { exact: true });
  readonly phoneError = () => this.page.getByText("Please enter a valid phone number");
  readonly save = () => this.page.getByRole("button", { name: "Save" });

  async goto() {
    await this.page.goto("/users/profile");
    await expect(this.heading()).toBeVisible();
  }
}

/** /users */
export class UsersPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Users" });
  readonly table = () => this.page.getByRole("table");
  readonly search = () => this.page.getByLabel("Search users");
  readonly sortBy = (column: string) => this.table().getByRole("button", { name: column });
  readonly columnHeader = (column: string) => this.table().getByRole("columnheader", { name: column });
  readonly rows = () => this.table().locator("tbody tr");
  readonly row = (email: string) => this.table().getByRole("row").filter({ hasText: email });
}

/** The set-password form of an emailed link (/users/activate, /users/reset). */
export class SetPasswordPage {
  constructor(private readonly page: Page) {}

  readonly newPassword = () => this.page.getByLabel("New password", { exact: true });
  readonly confirmation = () => this.page.getByLabel("Confirm new password");
  readonly submit = () => this.page.getByRole("button", { name: "Set password" });

  async setPassword(password: string) {
    await this.newPassword().fill(password);
    await this.confirmation().fill(password);
    await this.submit().click();
  }
}

/** The idle modal of the session inactivity. */
export class IdleModal {
  constructor(private readonly page: Page) {}

  readonly dialog = () => this.page.getByRole("alertdialog", { name: "Session locked" });
  readonly password = () => this.dialog().getByLabel("Password");
  readonly unlock = () => this.dialog().getByRole("button", { name: "Unlock" });
  readonly signOut = () => this.dialog().getByRole("button", { name: "Sign out" });

  /** Opens the lock with the password. */
  async unlockWith(password: string) {
    await this.password().fill(password);
    await this.unlock().click();
  }
}

/**
 * Shortens the session timing through the test-only setting (it can only shorten), counted from
 * now: the user's last activity is stamped at the same moment. Otherwise the seconds a busy
 * machine spent between the sign-in click and this call would count as idle time, and a timeout
 * of a few seconds could be over before the test looks.
 */
export async function shortenSessionTiming(page: Page, timing: { timeoutS: number; warningS: number }) {
  await page.evaluate((value) => {
    const user = JSON.parse(localStorage.getItem("user") ?? "null") as Record<string, unknown> | null;
    if (user) localStorage.setItem("user", JSON.stringify({ ...user, last_active: Date.now() }));
    localStorage.setItem("clinro_session_timeout_override", JSON.stringify(value));
  }, timing);
}

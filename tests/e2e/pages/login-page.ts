import { expect, type Page } from "@playwright/test";

/** The sign-in screen, as a clinician sees it. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  readonly username = () => this.page.getByLabel("Username");
  readonly password = () => this.page.getByLabel("Password", { exact: true });
  readonly submit = () => this.page.getByRole("button", { name: "Log in" });
  readonly error = () => this.page.getByRole("alert");

  async goto(path = "/login") {
    await this.page.goto(path);
    await expect(this.page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
  }

  async signIn(username: string, password: string) {
    await this.username().fill(username);
    await this.password().fill(password);
    await this.submit().click();
  }
}

export async function signInAs(page: Page, username: string, password: string) {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(username, password);
}

export async function storedUser(page: Page) {
  return page.evaluate(() => {
    const raw = localStorage.getItem("user");
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
  });
}

import { expect, test } from "./support/test.ts";
import { AppShell } from "./pages/app-shell.ts";
import { LoginPage, signInAs, storedUser } from "./pages/login-page.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

test.describe("signing in", () => {
  test("the coordinator signs in and lands on the study list", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    const table = page.getByRole("table");
    await expect(table.getByRole("link", { name: "Remote Visits Hub" })).toBeVisible();
    await expect(table.getByRole("link", { name: "Boston Clinical Research Center" })).toBeVisible();
    // Not virtual, not at tree level 4 and not its study's only site: filtered out.
    await expect(table.getByText("Northern Region Office")).toHaveCount(0);
    const user = await storedUser(page);
    expect(user).toMatchObject({ username: COORDINATOR, is_temporary_password: false });
    expect(typeof user?.last_active).toBe("number");
  });

  test("a wrong password says so and signs nobody in", async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(COORDINATOR, "not-the-password");
    await expect(login.error()).toHaveText("Your username or password is incorrect. Please try again.");
    await expect(page).toHaveURL(/\/login/);
    expect(await storedUser(page)).toBeNull();
  });

  test("an unknown username gets the very same message", async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn("nobody@demo.test", DEMO_PASSWORD);
    await expect(login.error()).toHaveText("Your username or password is incorrect. Please try again.");
  });

  test("a reload keeps the session", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    await expect(page).toHaveURL(/\/studies$/);
  });

  test("logging out clears the session and revokes the token on the server", async ({ page, request }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    const token = (await storedUser(page))?.token as string;
    await new AppShell(page).logout();
    await expect(page).toHaveURL(/\/login/);
    expect(await storedUser(page)).toBeNull();
    await expect
      .poll(async () => {
        const answer = await request.get("/control/clinro/users/me", {
          headers: { Authorization: `Bearer ${token}` },
        });
        return answer.status();
      })
      .toBe(401);
    await page.goto("/studies");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fstudies/);
  });

  test("an unauthenticated visit goes to login and back to where it was going", async ({ page }) => {
    await page.goto("/unauthorized");
    await page.goto("/studies");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fstudies/);
    await new LoginPage(page).signIn(COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
  });

  test("a signed-in user who opens login goes to the redirect value", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/studies$/);
    await page.goto("/login?redirect=%2Funauthorized");
    await expect(page).toHaveURL(/\/unauthorized$/);
    await page.goto("/login?redirect=https%3A%2F%2Fevil.example");
    await expect(page).toHaveURL(/\/studies$/);
  });

  test("choosing a study stores the selection and opens its next page", async ({ page }) => {
    await signInAs(page, COORDINATOR, DEMO_PASSWORD);
    await page.getByRole("link", { name: "Remote Visits Hub" }).click();
    await expect(page).toHaveURL(/\/studies\/102\/sites\/1021\/search$/);
    const selection = await page.evaluate(() => sessionStorage.getItem("selected_study_site"));
    expect(JSON.parse(selection ?? "null")).toMatchObject({ studyId: 102, siteId: 1021, smsEnabled: true });
    await page.goto("/studies");
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem("selected_study_site"))).toBeNull();
    // A study that requires consent opens its consents first.
    await page.getByRole("link", { name: "Boston Clinical Research Center" }).click();
    await expect(page).toHaveURL(/\/studies\/101\/sites\/1011\/consents$/);
  });
});

test.describe("in Spanish", () => {
  test.use({ locale: "es-ES" });

  test("a browser set to Spanish gets the Spanish catalog and dates", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Inicie sesión en el portal clínico" })).toBeVisible();
    await page.getByLabel("Nombre de usuario").fill(COORDINATOR);
    await page.getByLabel("Contraseña").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await expect(page.getByRole("heading", { name: "Elija un estudio y un centro" })).toBeVisible();
    const monthsShortSpanish = [
      "ene",
      "feb",
      "mar",
      "abr",
      "may",
      "jun",
      "jul",
      "ago",
      "sep",
      "oct",
      "nov",
      "dic",
    ];
    const today = new Date();
    const expected = `${String(today.getDate()).padStart(2, "0")}-${monthsShortSpanish[today.getMonth()]}-${today.getFullYear()}`;
    await expect(page.getByText(expected, { exact: true })).toBeVisible();
  });
});

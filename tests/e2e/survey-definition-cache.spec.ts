import { expect, test } from "@playwright/test";
import { signInAs } from "./pages/login-page.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

// The definition call is built with the survey engine; until then the route below answers for
// the server, and what is under test is the service worker's cache.
const DEFINITION_PATH = "/control/studies/101/instruments/42/hamd-17";
const definition = {
  id: "hamd-17",
  type: "SURVEY",
  questions: [{ id: "q1", type: "introduction", label: "HAM-D" }],
};

test("a survey definition opened once online opens offline", async ({ context, page }) => {
  let served = 0;
  await context.route(`**${DEFINITION_PATH}*`, async (route) => {
    served++;
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(definition) });
  });
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  const load = (path: string) =>
    page.evaluate(async (path) => {
      const answer = await fetch(path, { headers: { Accept: "application/json" } });
      return { status: answer.status, body: await answer.json() };
    }, path);

  expect(await load(`${DEFINITION_PATH}?instance=7`)).toEqual({ status: 200, body: definition });
  expect(served).toBe(1);

  await context.setOffline(true);
  expect(await load(`${DEFINITION_PATH}?instance=7`)).toEqual({ status: 200, body: definition });
  await context.setOffline(false);
});

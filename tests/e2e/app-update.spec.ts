import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { E2E_STATIC_DIR } from "./support/e2e-dirs.ts";
import { expect, test } from "./support/test.ts";

/** The worker of the build the end-to-end server serves (E2E_STATIC_DIR, dist by default). */
const SERVED_WORKER = path.join(E2E_STATIC_DIR, "sw.js");

test("a new version is announced and installed only when the user chooses", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The second visit is the one the worker controls; only then does an update have to wait.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
  const firstController = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

  const original = await readFile(SERVED_WORKER, "utf8");
  try {
    // A new deployment: the server now serves a different worker.
    await writeFile(SERVED_WORKER, `${original}\n// release ${Date.now()}\n`);
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByRole("status").filter({ hasText: "A new version of the portal is ready." });
    await expect(prompt).toBeVisible({ timeout: 15_000 });
    // Nothing was reloaded behind the user's back.
    await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();

    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    await expect(page.getByRole("heading", { name: "Sign in to the clinician portal" })).toBeVisible();
    await expect(prompt).toHaveCount(0);
    expect(firstController).not.toBeNull();
    const waiting = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.waiting,
    );
    expect(waiting).toBeFalsy();
  } finally {
    await writeFile(SERVED_WORKER, original);
  }
});

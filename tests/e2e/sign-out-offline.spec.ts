import { expect, test } from "./support/test.ts";
import { signInAs, storedUser } from "./pages/login-page.ts";
import { OutboxPage, enqueueEvents } from "./pages/outbox-page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

test("a sign-out made offline closes the session on the server once the connection is back, before the user's other items", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
  const user = await storedUser(page);
  const token = String(user?.token);
  const sent: string[] = [];
  // What reached the server (an answer came back), in order.
  context.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (response.request().method() === "POST" && path.startsWith("/control/")) sent.push(path);
  });

  await context.setOffline(true);
  // Something of the user's waits in the queue too: it must not go before the sign-out.
  await enqueueEvents(
    page,
    [{ type: "seen", timestamp: new Date().toISOString(), info: { note: "before" } }],
    "seen",
  );
  await page.getByRole("button", { name: String(user?.nickname || user?.name || user?.username) }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page
    .getByRole("dialog", { name: "Log out with forms not sent?" })
    .getByRole("button", { name: "Log out" })
    .click();
  await expect(page).toHaveURL(/\/login/);
  const notice = page.getByRole("status").filter({ hasText: "You are signed out on this device" });
  await expect(notice).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtSizes(page, "signing", "sign-out-offline");
  // Until then the token still works on the server: nothing reached it.
  expect(sent).toEqual([]);

  await context.setOffline(false);
  await expect(notice).toHaveCount(0, { timeout: 30_000 });
  expect(sent[0]).toBe("/control/clinro/logout");
  const after = await page.request.get("/control/v2/signing-key", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);

  // The user's own item was kept: it waits for them to sign in again, and goes then.
  await signInAs(page, COORDINATOR, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/studies$/);
  const outbox = new OutboxPage(page);
  await outbox.goto();
  await expect(outbox.emptyState()).toBeVisible({ timeout: 30_000 });
  expect(sent.filter((path) => path === "/control/participants/me/events")).toHaveLength(1);
});

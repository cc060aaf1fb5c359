import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { createPortalServer, type PortalServer } from "./support/server-process.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

/** The demo seed inserts study 101's participants first: participant 1 is at site 1011. */
const PARTICIPANT_ID = 1;
// A whole 1x1 PNG: the server decodes every image it is sent and refuses one cut short.
const PNG_BYTES = Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGPg9s/5DwAC9QHGAcHe5gAAAABJRU5ErkJggg==",
    "base64",
  ),
);

async function signIn(page: Page, server: PortalServer) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Username").fill(COORDINATOR);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
}

const queued = (page: Page) => page.evaluate(async () => (await window.clinroOutbox!.list()).length);

function events(run: string, from: number, count: number) {
  return Array.from({ length: count }, (_, index) => ({
    type: "seen",
    timestamp: new Date().toISOString(),
    info: { run, seq: from + index },
  }));
}

const countEvents = (server: PortalServer, run: string) =>
  server.count(
    `select count(distinct (info->>'seq')) as count from participant_events where info->>'run' = $1`,
    [run],
  );
const countEventRows = (server: PortalServer, run: string) =>
  server.count(`select count(*) as count from participant_events where info->>'run' = $1`, [run]);

test.describe("the durable outbox against a real server", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  let server: PortalServer;

  test.beforeEach(async ({ browserName: _browser }, testInfo) => {
    // A port of this worker's own: the shared server of the other tests is on 4173.
    server = await createPortalServer(4300 + testInfo.workerIndex);
    await server.start();
  });

  test.afterEach(async () => {
    await server.dispose();
  });

  test("writes queued offline survive a reload and a closed tab, and reach the server exactly once", async ({
    context,
    page,
  }) => {
    const run = randomUUID();
    const fileName = `e2e-${run}.png`;
    await signIn(page, server);

    await context.setOffline(true);
    await page.evaluate(
      async ({ run, pngBytes, fileName, participantId }) => {
        const handle = window.clinroOutbox!;
        for (let index = 0; index < 3; index++) {
          await handle.enqueueEvents(
            [{ type: "seen", timestamp: new Date().toISOString(), info: { run, seq: index } }],
            `event ${index}`,
          );
        }
        await handle.enqueueUpload(pngBytes, "image/png", fileName, participantId);
      },
      { run, pngBytes: PNG_BYTES, fileName, participantId: PARTICIPANT_ID },
    );
    expect(await queued(page)).toBe(4);
    // Counted as a coordinator counts: a file of no form, and three updates.
    await expect(page.getByRole("link", { name: "Waiting to be sent: 1 file and 3 updates" })).toBeVisible();

    await page.reload();
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    expect(await queued(page)).toBe(4);

    await page.close();
    const reopened = await context.newPage();
    await reopened.goto(`${server.url}/studies`);
    await expect(reopened.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    expect(await queued(reopened)).toBe(4);
    const items = await reopened.evaluate(() => window.clinroOutbox!.list());
    // The drain stops at the first network error: the oldest item shows it, the rest wait.
    expect(items[0]).toMatchObject({ lastError: { kind: "network" } });
    expect(items.map((item) => item.label)).toEqual(["event 0", "event 1", "event 2", fileName]);

    await context.setOffline(false);
    await expect.poll(() => queued(reopened), { timeout: 20_000 }).toBe(0);
    // Asking again sends nothing twice.
    await reopened.evaluate(() => window.clinroOutbox!.flush());

    await server.stop();
    expect(await countEventRows(server, run)).toBe(3);
    expect(await countEvents(server, run)).toBe(3);
    expect(
      await server.count(`select count(*) as count from uploaded_files where file_name = $1`, [fileName]),
    ).toBe(1);
  });

  test("writes queued while the server is down are sent once it is back", async ({ page }) => {
    const run = randomUUID();
    await signIn(page, server);
    await server.stop();
    await page.evaluate(
      async (batch) => {
        for (const [index, event] of batch.entries())
          await window.clinroOutbox!.enqueueEvents([event], `e${index}`);
      },
      events(run, 0, 5),
    );
    await expect
      .poll(async () =>
        (await page.evaluate(() => window.clinroOutbox!.list())).some((item) => item.attempts > 0),
      )
      .toBe(true);
    expect(await queued(page)).toBe(5);

    await server.start();
    await page.evaluate(() => window.clinroOutbox!.retryAll());
    await expect.poll(() => queued(page), { timeout: 20_000 }).toBe(0);
    await server.stop();
    expect(await countEventRows(server, run)).toBe(5);
  });

  test("a server stopped in the middle of a flush of 50 items ends with exactly 50 records", async ({
    context,
    page,
  }) => {
    const run = randomUUID();
    await signIn(page, server);
    await context.setOffline(true);
    await page.evaluate(
      async (batch) => {
        for (const [index, event] of batch.entries())
          await window.clinroOutbox!.enqueueEvents([event], `e${index}`);
      },
      events(run, 0, 50),
    );
    expect(await queued(page)).toBe(50);

    await context.setOffline(false);
    // Stop the server as soon as the flush is under way.
    await expect.poll(() => queued(page), { intervals: [10], timeout: 20_000 }).toBeLessThan(48);
    await server.stop();
    const leftAfterStop = await queued(page);
    expect(leftAfterStop).toBeGreaterThan(0);

    await server.start();
    await page.evaluate(() => window.clinroOutbox!.retryAll());
    await expect.poll(() => queued(page), { timeout: 30_000 }).toBe(0);
    await server.stop();
    expect(await countEventRows(server, run)).toBe(50);
    expect(await countEvents(server, run)).toBe(50);
  });

  test("a draft has one owner across tabs", async ({ context, page }) => {
    await signIn(page, server);
    const second = await context.newPage();
    await second.goto(`${server.url}/studies`);
    await expect(second.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    const key = `draft-${randomUUID()}`;
    expect(await page.evaluate((key) => window.clinroOutbox!.drafts.claim(key), key)).toBe(true);
    expect(await second.evaluate((key) => window.clinroOutbox!.drafts.claim(key), key)).toBe(false);
    await page.evaluate((key) => window.clinroOutbox!.drafts.save(key, { answers: { q1: 2 } }), key);
    // The saved answers survive a reload of the owning tab, which also frees the draft.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Choose a study and site" })).toBeVisible();
    expect(await page.evaluate((key) => window.clinroOutbox!.drafts.load(key), key)).toMatchObject({
      value: { answers: { q1: 2 } },
    });
    expect(await second.evaluate((key) => window.clinroOutbox!.drafts.claim(key), key)).toBe(true);
  });
});

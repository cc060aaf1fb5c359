/**
 * `npm run bench:outbox`: enqueue 500 writes offline (every tenth a 1 MB image upload, the rest
 * events) in the production build, go online, and print the time until the outbox is empty and
 * the number of requests sent. Needs `npm run build` first; uses Chromium and a server of its own.
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { createPortalServer } from "../tests/e2e/support/server-process.ts";

const ITEMS = 500;
const IMAGE_EVERY = 10;
const IMAGE_BYTES = 1024 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Participant 1 is at site 1011 of study 101 in the demo seed. */
const PARTICIPANT_ID = 1;

const server = await createPortalServer(4390);
await server.start();
const browser = await chromium.launch({
  executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--no-sandbox"],
});
const results: { drainMs: number; requests: number; retried: number }[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel("Username").fill("coordinator@demo.test");
    await page.getByLabel("Password", { exact: true }).fill("DemoPass1!");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(/\/studies$/);
    await page.evaluate(() => navigator.serviceWorker.ready);

    await context.setOffline(true);
    await page.evaluate(
      async ({ items, imageEvery, imageBytes, participantId }) => {
        const handle = window.clinroOutbox!;
        const image = new Uint8Array(imageBytes);
        image.set([0xff, 0xd8, 0xff, 0xe0]);
        const imageArray = Array.from(image);
        for (let index = 0; index < items; index++) {
          if (index % imageEvery === 0) {
            await handle.enqueueUpload(
              imageArray,
              "image/jpeg",
              `bench-${Date.now()}-${index}.jpeg`,
              participantId,
            );
          } else {
            await handle.enqueueEvents(
              [{ type: "seen", timestamp: new Date().toISOString(), info: { index } }],
              `e${index}`,
            );
          }
        }
      },
      { items: ITEMS, imageEvery: IMAGE_EVERY, imageBytes: IMAGE_BYTES, participantId: PARTICIPANT_ID },
    );
    const queued = await page.evaluate(async () => (await window.clinroOutbox!.list()).length);
    if (queued !== ITEMS) throw new Error(`expected ${ITEMS} queued items, found ${queued}`);
    let requests = 0;
    // Counted at the context, which also sees requests the service worker makes.
    context.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/control/")) requests++;
    });
    const started = performance.now();
    await context.setOffline(false);
    while ((await page.evaluate(async () => (await window.clinroOutbox!.list()).length)) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const drainMs = performance.now() - started;
    results.push({ drainMs, requests, retried: requests - ITEMS });
    await context.close();
  }
} finally {
  await browser.close();
  await server.dispose();
}

const drains = results.map((result) => result.drainMs).sort((a, b) => a - b);
console.log(
  `outbox drain: ${ITEMS} items (${ITEMS / IMAGE_EVERY} images of 1 MB), ${RUNS} runs, database ${server.onPostgres ? "PostgreSQL" : "PGlite"}`,
);
console.log(
  `  time to drain  min ${drains[0]!.toFixed(0)} ms  median ${drains[Math.floor(drains.length / 2)]!.toFixed(0)} ms  max ${drains.at(-1)!.toFixed(0)} ms`,
);
for (const [index, result] of results.entries()) {
  console.log(`  run ${index + 1}: ${result.drainMs.toFixed(0)} ms, ${result.requests} requests sent`);
}

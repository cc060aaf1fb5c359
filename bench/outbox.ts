/**
 * `npm run bench:outbox`: enqueue 500 writes offline (every tenth a real 1 MB JPEG upload, the rest
 * events), spread over 20 participants, in the production build, go online, and print the time
 * until the outbox is empty and the number of requests sent. Beside it, the floor: the same 500
 * requests (fresh Idempotency-Keys, the same token) sent from Node by a plain pool of fetch
 * calls with the drain's concurrency, and the ratio of the two (target: 1.5 times or less).
 * Needs `npm run build` first; uses Chromium and a server of its own.
 */
import "fake-indexeddb/auto";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { activeContentMarker } from "../server/files/check-upload-content.ts";
import { sendOutboxItem } from "../src/outbox/send-item.ts";
import { DRAIN_CONCURRENCY } from "../src/outbox/drain.ts";
import { eventsWrite, makeOutboxItem, uploadWrite } from "../src/outbox/enqueue.ts";
import type { OutboxItem } from "../src/outbox/outbox-item.ts";
import { createPortalServer } from "../tests/e2e/support/server-process.ts";

const ITEMS = 500;
const IMAGE_EVERY = 10;
/**
 * A real JPEG of about 1 MB (the server decodes every image it is sent and refuses anything
 * else): deterministic noise, which JPEG cannot shrink, at quality 95.
 */
async function benchJpeg() {
  const side = 1020;
  const pixels = Buffer.alloc(side * side * 3);
  let seed = 1;
  for (let index = 0; index < pixels.length; index++) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    pixels[index] = seed >>> 24;
  }
  const jpeg = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  if (activeContentMarker(jpeg)) throw new Error("The bench's JPEG happens to hold an HTML marker");
  return new Uint8Array(jpeg);
}
const IMAGE = await benchJpeg();
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** No item sent for this long: the bench stops and says what is left. */
const STALL_MS = 60_000;
/** The demo seed puts study 101's odd participant ids at site 1011, the coordinator's. */
const PARTICIPANT_IDS = Array.from({ length: 20 }, (_, index) => 1 + 2 * index);
const participantOf = (index: number) => PARTICIPANT_IDS[index % PARTICIPANT_IDS.length]!;

/** The same writes as the page enqueues, as outbox items of the signed-in user. */
function floorItems(user: { id: number; username: string }) {
  const image = IMAGE;
  return Array.from({ length: ITEMS }, (_, index) => {
    const context = { userId: user.id, username: user.username, participantId: participantOf(index) };
    return makeOutboxItem(
      index % IMAGE_EVERY === 0
        ? uploadWrite(
            { bytes: new Uint8Array(image).buffer, type: "image/jpeg" },
            {
              file_name: `floor-${Date.now()}-${index}.jpeg`,
              module_name: "clinro",
              participant_id: participantOf(index),
            },
          )
        : eventsWrite([{ type: "seen", timestamp: new Date().toISOString(), info: { index } }], `e${index}`),
      context,
    );
  });
}

/** The floor: each item sent once by a pool of `concurrency` plain fetch loops. */
async function sendPlainly(baseUrl: string, items: OutboxItem[], token: string, concurrency: number) {
  const queue = [...items];
  const failures: string[] = [];
  const fetchAt: typeof fetch = (input, init) => fetch(new URL(String(input), baseUrl), init);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const outcome = await sendOutboxItem(item, token, fetchAt);
        if (outcome.kind !== "answered" || outcome.status >= 300)
          failures.push(`${item.label}: ${outcome.message}`);
      }
    }),
  );
  if (failures.length > 0) throw new Error(`The floor's requests failed: ${failures.slice(0, 3).join("; ")}`);
  return performance.now() - started;
}

const server = await createPortalServer(4390);
await server.start();
const browser = await chromium.launch({
  executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--no-sandbox"],
});
const results: { drainMs: number; requests: number; retried: number; floorMs: number }[] = [];
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
    console.error(`run ${run + 1}: signed in, queueing ${ITEMS} items offline`);

    await context.setOffline(true);
    await page.evaluate(
      async ({ items, imageEvery, imageArray, participantIds }) => {
        const handle = window.clinroOutbox!;
        for (let index = 0; index < items; index++) {
          if (index % imageEvery === 0) {
            await handle.enqueueUpload(
              imageArray,
              "image/jpeg",
              `bench-${Date.now()}-${index}.jpeg`,
              participantIds[index % participantIds.length]!,
            );
          } else {
            await handle.enqueueEvents(
              [{ type: "seen", timestamp: new Date().toISOString(), info: { index } }],
              `e${index}`,
              participantIds[index % participantIds.length],
            );
          }
        }
      },
      {
        items: ITEMS,
        imageEvery: IMAGE_EVERY,
        imageArray: Array.from(IMAGE),
        participantIds: PARTICIPANT_IDS,
      },
    );
    const queued = await page.evaluate(async () => (await window.clinroOutbox!.list()).length);
    if (queued !== ITEMS) throw new Error(`expected ${ITEMS} queued items, found ${queued}`);
    let requests = 0;
    // Counted at the context, which also sees requests the service worker makes.
    context.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/control/")) requests++;
    });
    console.error(`run ${run + 1}: ${queued} queued, going online`);
    const started = performance.now();
    await context.setOffline(false);
    // A drain that stops making progress is reported, never waited on for ever.
    let left = ITEMS;
    let lastProgress = performance.now();
    while (left > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await page.evaluate(async () => (await window.clinroOutbox!.list()).length);
      if (now < left) lastProgress = performance.now();
      left = now;
      if (performance.now() - lastProgress > STALL_MS) {
        const stuck = await page.evaluate(async () => (await window.clinroOutbox!.list()).slice(0, 3));
        throw new Error(
          `run ${run + 1}: the drain stalled with ${left} items left: ${JSON.stringify(stuck)}`,
        );
      }
    }
    const drainMs = performance.now() - started;
    const user = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem("user") ?? "null") as { id: number; username: string; token: string },
    );
    await context.close();
    // The floor, right after, on the same server and database.
    const floorMs = await sendPlainly(server.url, floorItems(user), user.token, DRAIN_CONCURRENCY);
    results.push({ drainMs, requests, retried: requests - ITEMS, floorMs });
  }
} finally {
  await browser.close();
  await server.dispose();
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const drains = sorted(results.map((result) => result.drainMs));
const floors = sorted(results.map((result) => result.floorMs));
const ratios = sorted(results.map((result) => result.drainMs / result.floorMs));
console.log(
  `outbox drain: ${ITEMS} items (${ITEMS / IMAGE_EVERY} JPEGs of ${(IMAGE.byteLength / 1024 / 1024).toFixed(2)} MB) over ${PARTICIPANT_IDS.length} participants, ${RUNS} runs, concurrency ${DRAIN_CONCURRENCY}, database ${server.onPostgres ? "PostgreSQL" : "PGlite"}`,
);
console.log(`  ${"".padEnd(38)}${"min".padStart(9)}${"median".padStart(9)}${"max".padStart(9)}`);
const line = (label: string, values: number[], digits = 0, unit = "ms") =>
  console.log(
    `  ${label.padEnd(38)}${values[0]!.toFixed(digits).padStart(9)}${median(values).toFixed(digits).padStart(9)}${values.at(-1)!.toFixed(digits).padStart(9)} ${unit}`,
  );
line("the outbox drains (page)", drains);
line("floor: the same requests, Node fetch", floors);
line("drain / floor (target <= 1.5)", ratios, 2, "x");
for (const [index, result] of results.entries()) {
  console.log(
    `  run ${index + 1}: drain ${result.drainMs.toFixed(0)} ms, ${result.requests} requests sent; floor ${result.floorMs.toFixed(0)} ms`,
  );
}
console.log(
  `  load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")}`,
);

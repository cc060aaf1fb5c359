/**
 * `npm run bench:survey:throttled`: the first question of a survey on a mid-range
 * tablet, ours beside the best-known engine's (SurveyJS, bench/surveyjs-reference) under the same
 * throttling in the same run. The profile is Lighthouse's mobile one, applied over the DevTools
 * protocol to every page (and to our service worker, a target of its own):
 * - CPU 4x slower (Emulation.setCPUThrottlingRate, rate 4);
 * - "slow 4G": 150 ms round trip, 1.6 Mbps down, 750 Kbps up (Network.emulateNetworkConditions);
 * - a tablet's viewport, 768 x 1024 (portrait), touch.
 *
 * Two cases, each in a fresh Chromium per run, alternating ours and SurveyJS's:
 * - first visit: nothing cached. Ours as a clinician's first visit is: the signed-in user in
 *   localStorage, the service worker allowed (it registers after the page's load event);
 * - installed: ours with its service worker installed and controlling the page, its precache and
 *   the definition's cache warm (a first visit, a reload, the measured navigation); SurveyJS
 *   has no worker: its repeat visit with the HTTP cache warm (its hashed assets cacheable for a
 *   year, the page and the survey's JSON revalidated with an ETag, as a static host serves them).
 *
 * The figure: navigation start to the first question's label painted with its first control
 * enabled (the same probes as bench/survey.ts), min / median / max over --runs (5), and the
 * ratio ours / SurveyJS of the medians (target at most 0.50). The survey: --n questions (1,000,
 * the size the targets were set at). Serves a copy of dist/ (or --dist DIR); it does not build: run it as
 *   flock /tmp/e2e.lock sh -c 'npm run build && npm run bench:survey:throttled'
 * so that no other build or browser shares the machine's cores while it runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { sql } from "drizzle-orm";
import { build as viteBuild } from "vite";
import { executeRows, openDatabase } from "../server/db/client.ts";
import { freePort } from "../tests/support/server-process.ts";
import { benchSurvey, type PlannedQuestion } from "./survey-definition.ts";
import { surveyJsDefinition } from "./surveyjs-definition.ts";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    n: { type: "string", default: "1000" },
    dist: { type: "string", default: "dist" },
    /** How long a freshly launched browser is left to start before the measured visit. */
    "settle-ms": { type: "string", default: "1500" },
  },
});
const RUNS = Number(flags.runs);
const SIZE = Number(flags.n);
const SETTLE_MS = Number(flags["settle-ms"]);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs takes a positive whole number");
if (!Number.isInteger(SIZE) || SIZE < 102) throw new Error("--n takes a question count of at least 102");

const PROFILE = {
  cpuRate: 4,
  latencyMs: 150,
  downloadBitsPerSecond: 1.6e6,
  uploadBitsPerSecond: 750e3,
  viewport: { width: 768, height: 1024 },
};
const TARGET_RATIO = 0.5;
const STUDY_ID = 101;
const SITE_ID = 1011;
const PARTICIPANT_ID = 1;
const USERNAME = "coordinator@demo.test";
const PASSWORD = "DemoPass1!";
const ROOT = path.resolve(import.meta.dirname, "..");
const CHROMIUM = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
const FIRST_PAINTED_SIGNAL = "__surveyBench: first question painted";

// ---------------------------------------------------------------------------------------------
// Clean-up, also on failure and on Ctrl+C.

const cleanups: (() => Promise<unknown>)[] = [];
async function cleanUp() {
  while (cleanups.length > 0) {
    await cleanups.pop()!().catch((error: unknown) => console.error("clean-up:", error));
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${output}`)),
    );
  });
}

async function startServer(env: NodeJS.ProcessEnv, url: string): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("The server exited");
    if (Date.now() > deadline) {
      await stop();
      throw new Error("The server did not become healthy in time");
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return stop;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// Probes (plain JavaScript: they run in the page before its scripts). The same conditions as
// bench/survey.ts's: the label in the DOM with a size, its first control enabled, then painted.

const AFTER_PAINT = `const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  });`;

const OUR_PROBE = `(() => {
  const bench = { first: null };
  window.__surveyBench = bench;
  ${AFTER_PAINT}
  const observer = new MutationObserver(() => {
    const now = performance.now();
    if (bench.first !== null) return;
    const label = document.querySelector('[id^="question-label-"]');
    if (!label) return;
    const box = label.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    const question = label.closest("section") || label.parentElement;
    const control = question && question.querySelector("input, textarea, select, button");
    if (!control || control.disabled) return;
    const first = { dom: now, painted: null, id: label.id };
    bench.first = first;
    observer.disconnect();
    afterPaint((time) => { first.painted = time; console.debug(${JSON.stringify(FIRST_PAINTED_SIGNAL)}); });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
})();`;

const REFERENCE_PROBE = `(() => {
  const bench = { first: null };
  window.__surveyBench = bench;
  ${AFTER_PAINT}
  const observer = new MutationObserver(() => {
    const now = performance.now();
    if (bench.first !== null) return;
    const title = document.querySelector(".sd-question .sd-question__title .sv-string-viewer");
    if (!title) return;
    const box = title.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    const question = title.closest(".sd-question");
    const control = question && question.querySelector("input, textarea, select, button");
    if (!control || control.disabled) return;
    const first = { dom: now, painted: null, id: title.textContent };
    bench.first = first;
    observer.disconnect();
    afterPaint((time) => { first.painted = time; console.debug(${JSON.stringify(FIRST_PAINTED_SIGNAL)}); });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
})();`;

type Probe = { first: { dom: number; painted: number | null; id: string } | null };
type Measured = { painted: number; dom: number; bytes: number };

// ---------------------------------------------------------------------------------------------
// Throttling.

const networkConditions = {
  offline: false,
  latency: PROFILE.latencyMs,
  downloadThroughput: PROFILE.downloadBitsPerSecond / 8,
  uploadThroughput: PROFILE.uploadBitsPerSecond / 8,
};

/** The tablet profile on a page: its CPU and its network. */
async function throttle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", networkConditions);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PROFILE.cpuRate });
  return cdp;
}

/**
 * The same network profile on every service worker of the browser: a worker is a target of its
 * own, which the page's emulation does not reach, and ours fetches the definition (network
 * first). Attached through the browser's session (messages to the target, not flattened).
 * Answers how many workers were throttled.
 */
async function throttleServiceWorkers(browser: Browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  let throttled = 0;
  for (const target of targetInfos.filter((info) => info.type === "service_worker")) {
    const { sessionId } = await cdp.send("Target.attachToTarget", {
      targetId: target.targetId,
      flatten: false,
    });
    const answers = new Map<number, (error?: string) => void>();
    cdp.on("Target.receivedMessageFromTarget", (event) => {
      if (event.sessionId !== sessionId) return;
      const message = JSON.parse(event.message) as { id?: number; error?: { message: string } };
      if (message.id !== undefined) answers.get(message.id)?.(message.error?.message);
    });
    let id = 0;
    const send = (method: string, params: object) =>
      new Promise<void>((resolve, reject) => {
        const messageId = ++id;
        answers.set(messageId, (error) => (error ? reject(new Error(`${method}: ${error}`)) : resolve()));
        void cdp.send("Target.sendMessageToTarget", {
          sessionId,
          message: JSON.stringify({ id: messageId, method, params }),
        });
      });
    await send("Network.enable", {});
    await send("Network.emulateNetworkConditions", networkConditions);
    throttled++;
  }
  return { throttled, detach: () => cdp.detach() };
}

// ---------------------------------------------------------------------------------------------
// Browsers and visits.

const openBrowsers = new Set<Browser>();
async function launch() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  openBrowsers.add(browser);
  browser.once("disconnected", () => openBrowsers.delete(browser));
  return browser;
}
cleanups.push(async () => {
  for (const browser of openBrowsers) await browser.close().catch(() => undefined);
});

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

async function signIn(serverUrl: string): Promise<StorageState> {
  const browser = await launch();
  try {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await page.goto(`${serverUrl}/login`);
    await page.getByLabel("Username").fill(USERNAME);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(/\/studies$/);
    return await context.storageState();
  } finally {
    await browser.close();
  }
}

/** The signed-in user, made active just now so that the idle timeout cannot sign it out. */
function freshState(storageState: StorageState) {
  const state = structuredClone(storageState);
  for (const origin of state.origins) {
    for (const item of origin.localStorage) {
      if (item.name !== "user") continue;
      item.value = JSON.stringify({ ...(JSON.parse(item.value) as object), last_active: Date.now() });
    }
  }
  return state;
}

async function newTablet(browser: Browser, options: { storageState?: StorageState; probe: string }) {
  const context = await browser.newContext({
    storageState: options.storageState,
    viewport: PROFILE.viewport,
    hasTouch: true,
  });
  await context.addInitScript({ content: options.probe });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  let bytes = 0;
  context.on("requestfinished", (request) => {
    void request.sizes().then(
      (sizes) => (bytes += sizes.responseBodySize + sizes.responseHeadersSize),
      () => undefined,
    );
  });
  return { context, page, bytes: () => bytes };
}

/** Navigates and waits for the probe's first question painted; checks it is the survey's first. */
async function measure(page: Page, navigate: () => Promise<unknown>, expected: string, bytes: () => number) {
  const painted = page.waitForEvent("console", {
    predicate: (message) => message.text() === FIRST_PAINTED_SIGNAL,
    timeout: 120_000,
  });
  // Observed at once: a navigation that throws must not leave it rejecting unhandled.
  painted.catch(() => undefined);
  const before = bytes();
  await navigate();
  await painted;
  const { first } = await page.evaluate(() => (window as unknown as { __surveyBench: Probe }).__surveyBench);
  if (!first || first.id !== expected)
    throw new Error(`The first question seen was ${first?.id}, not ${expected}`);
  return { dom: first.dom, painted: first.painted ?? Number.NaN, bytes: bytes() - before };
}

type Survey = {
  route: string;
  firstId: string;
  definitionPath: string;
  referenceUrl: string;
  firstLabel: string;
};

async function oursFirstVisit(survey: Survey, storageState: StorageState): Promise<Measured> {
  const browser = await launch();
  try {
    const tablet = await newTablet(browser, { storageState: freshState(storageState), probe: OUR_PROBE });
    if (SETTLE_MS > 0) await tablet.page.waitForTimeout(SETTLE_MS);
    await throttle(tablet.page);
    return await measure(
      tablet.page,
      () => tablet.page.goto(survey.route, { waitUntil: "commit" }),
      `question-label-${survey.firstId}`,
      tablet.bytes,
    );
  } finally {
    await browser.close();
  }
}

async function oursInstalled(
  survey: Survey,
  storageState: StorageState,
): Promise<Measured & { workers: number }> {
  const browser = await launch();
  try {
    const tablet = await newTablet(browser, { storageState: freshState(storageState), probe: OUR_PROBE });
    const { page } = tablet;
    // Installed unthrottled (the clinic's Wi-Fi, some day before): a visit, the worker takes the
    // page, a reload through it caches the definition.
    const label = `question-label-${survey.firstId}`;
    await measure(page, () => page.goto(survey.route), label, tablet.bytes);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 60_000,
    });
    await measure(page, () => page.reload(), label, tablet.bytes);
    await page.waitForFunction(
      async (definitionPath) => {
        const cache = await caches.open("clinro-survey-definitions");
        return (await cache.keys()).some((request) =>
          new URL(request.url).pathname.startsWith(definitionPath),
        );
      },
      survey.definitionPath,
      { timeout: 30_000, polling: 200 },
    );
    await page.goto("about:blank");
    await page.waitForTimeout(SETTLE_MS);
    await throttle(page);
    const workers = await throttleServiceWorkers(browser);
    try {
      return {
        ...(await measure(page, () => page.goto(survey.route, { waitUntil: "commit" }), label, tablet.bytes)),
        workers: workers.throttled,
      };
    } finally {
      await workers.detach();
    }
  } finally {
    await browser.close();
  }
}

async function referenceVisit(survey: Survey, repeat: boolean): Promise<Measured> {
  const browser = await launch();
  try {
    const tablet = await newTablet(browser, { probe: REFERENCE_PROBE });
    const { page } = tablet;
    if (repeat) {
      await measure(page, () => page.goto(survey.referenceUrl), survey.firstLabel, tablet.bytes);
      await page.goto("about:blank");
    }
    if (SETTLE_MS > 0) await page.waitForTimeout(SETTLE_MS);
    await throttle(page);
    return await measure(
      page,
      () => page.goto(survey.referenceUrl, { waitUntil: "commit" }),
      survey.firstLabel,
      tablet.bytes,
    );
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------
// SurveyJS's page, built and served as a static host would.

async function buildReference(outDir: string) {
  await viteBuild({
    configFile: false,
    root: path.join(ROOT, "bench/surveyjs-reference"),
    mode: "production",
    logLevel: "error",
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
};

/**
 * gzip (level 6) kept in memory; /assets/ (hashed names) cacheable for a year, everything else
 * (the page, the survey's JSON) revalidated with an ETag.
 */
async function serveStatic(folder: string, port: number): Promise<() => Promise<void>> {
  const files = new Map<string, { gzip: Buffer; etag: string }>();
  const server = createHttpServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    const file = path.join(folder, pathname === "/" ? "index.html" : pathname);
    if (!file.startsWith(folder + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    const serve = (entry: { gzip: Buffer; etag: string }) => {
      const headers: Record<string, string> = {
        "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
        etag: entry.etag,
        vary: "accept-encoding",
        "content-encoding": "gzip",
      };
      if (request.headers["if-none-match"] === entry.etag) response.writeHead(304, headers).end();
      else response.writeHead(200, headers).end(entry.gzip);
    };
    const known = files.get(file);
    if (known) return serve(known);
    readFile(file).then(
      (body) => {
        const entry = {
          gzip: gzipSync(body),
          etag: `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`,
        };
        files.set(file, entry);
        serve(entry);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

// ---------------------------------------------------------------------------------------------
// Figures.

const median = (values: readonly number[]) => {
  const ordered = [...values].sort((a, b) => a - b);
  const middle = Math.floor(ordered.length / 2);
  return ordered.length % 2 === 1 ? ordered[middle]! : (ordered[middle - 1]! + ordered[middle]!) / 2;
};
const spread = (values: readonly number[]) =>
  `${median(values).toFixed(0).padStart(6)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`.padEnd(
    20,
  );

// ---------------------------------------------------------------------------------------------
// Main.

const startLoad = loadavg()[0]!;
try {
  const started = performance.now();
  const dist = path.resolve(ROOT, flags.dist);
  if (!existsSync(path.join(dist, "index.html")))
    throw new Error(`No build in ${dist}: run npm run build first`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-bench-throttled-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const staticDir = path.join(dataDir, "dist");
  await cp(dist, staticDir, { recursive: true });
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    SEED: "demo",
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
  };
  // The demo seeded (a first start), then the survey imported with the CLI, the server stopped.
  await (
    await startServer(env, url)
  )();
  const { definition, plan } = benchSurvey(SIZE);
  await mkdir(path.join(dataDir, "definitions"));
  const file = path.join(dataDir, "definitions", `bench-survey-${SIZE}.json`);
  await writeFile(file, JSON.stringify(definition, null, 2));
  await run(
    "npm",
    ["run", "--silent", "clinro", "--", "instrument", "import", file, "--study", String(STUDY_ID)],
    env,
  );
  const database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  const [instrument] = await executeRows<{ id: number; slug: string }>(
    database.db,
    sql`select i.id as id, i.slug as slug from instruments i
        join instrument_definitions d on d.instrument_id = i.id
        where i.study_id = ${STUDY_ID} and d.definition->>'id' = ${String(definition.id)}
        order by d.id desc limit 1`,
  );
  await database.close();
  if (!instrument) throw new Error("The survey's import added no instrument");
  cleanups.push(await startServer(env, url));

  const referenceDir = path.join(dataDir, "surveyjs-reference");
  await buildReference(referenceDir);
  await writeFile(
    path.join(referenceDir, `survey-${SIZE}.json`),
    JSON.stringify(surveyJsDefinition(definition, plan)),
  );
  const referencePort = await freePort();
  cleanups.push(await serveStatic(referenceDir, referencePort));
  const { version: surveyJsVersion } = JSON.parse(
    await readFile(path.join(ROOT, "node_modules/survey-core/package.json"), "utf8"),
  ) as { version: string };
  const first: PlannedQuestion = plan[0]!;
  const survey: Survey = {
    route: `${url}/studies/${STUDY_ID}/sites/${SITE_ID}/participants/${PARTICIPANT_ID}/instruments/${instrument.id}/${instrument.slug}`,
    firstId: first.id,
    firstLabel: first.label,
    definitionPath: `/control/admin/studies/${STUDY_ID}/instruments/${instrument.id}/`,
    referenceUrl: `http://127.0.0.1:${referencePort}/?definition=${encodeURIComponent(`/survey-${SIZE}.json`)}`,
  };
  const storageState = await signIn(url);
  const browserVersion = await launch().then(async (browser) => {
    const version = browser.version();
    await browser.close();
    return version;
  });
  // One visit of each, not counted: the servers' first answers (JIT, database cache).
  await oursFirstVisit(survey, storageState);
  await referenceVisit(survey, false);

  const results = {
    oursFirst: [] as Measured[],
    oursInstalled: [] as Measured[],
    refFirst: [] as Measured[],
    refRepeat: [] as Measured[],
  };
  let workers = 0;
  /**
   * A visit whose browser failed (a headless Chromium that crashed or closed under the machine's
   * load) is made again, at most twice: a failure is the machine's, not a figure.
   */
  const attempt = async <T>(what: string, visit: () => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      try {
        return await visit();
      } catch (error) {
        if (tries >= 3) throw error;
        console.log(`  ${what}: ${(error as Error).message.split("\n")[0]}; once more`);
      }
    }
  };
  for (let index = 0; index < RUNS; index++) {
    const runStarted = performance.now();
    results.oursFirst.push(await attempt("ours, first visit", () => oursFirstVisit(survey, storageState)));
    results.refFirst.push(await attempt("SurveyJS, first visit", () => referenceVisit(survey, false)));
    const installed = await attempt("ours, installed", () => oursInstalled(survey, storageState));
    workers = Math.max(workers, installed.workers);
    results.oursInstalled.push(installed);
    results.refRepeat.push(await attempt("SurveyJS, repeat visit", () => referenceVisit(survey, true)));
    console.log(
      `run ${index + 1}/${RUNS}: ${((performance.now() - runStarted) / 1000).toFixed(0)} s; first question painted, ms: ` +
        `first visit ours ${results.oursFirst.at(-1)!.painted.toFixed(0)}, SurveyJS ${results.refFirst.at(-1)!.painted.toFixed(0)}; ` +
        `installed ours ${installed.painted.toFixed(0)}, SurveyJS repeat ${results.refRepeat.at(-1)!.painted.toFixed(0)}`,
    );
  }

  const painted = (list: Measured[]) => list.map((entry) => entry.painted);
  const kib = (list: Measured[]) => list.map((entry) => entry.bytes / 1024);
  console.log(
    `\nThe first question on a throttled tablet: N = ${SIZE.toLocaleString("en")} questions, ${RUNS} runs each, ` +
      `Chromium ${browserVersion}, CPU ${PROFILE.cpuRate}x slower, slow 4G (${PROFILE.latencyMs} ms RTT, ` +
      `${PROFILE.downloadBitsPerSecond / 1e6} Mbps down, ${PROFILE.uploadBitsPerSecond / 1e3} Kbps up), ` +
      `${PROFILE.viewport.width}x${PROFILE.viewport.height} touch; ${cpus().length} × ${cpus()[0]?.model.trim()}`,
  );
  console.log(
    `navigation -> first question painted, ms: median (min–max); transferred KiB (median); ours / SurveyJS ${surveyJsVersion} of the medians, target <= ${TARGET_RATIO.toFixed(2)}`,
  );
  console.log(
    `  ${"case".padEnd(24)}${"ours".padEnd(22)}${"SurveyJS".padEnd(22)}${"KiB ours / SurveyJS".padEnd(22)}ratio`,
  );
  const line = (label: string, ours: Measured[], reference: Measured[]) => {
    const ratio = median(painted(ours)) / median(painted(reference));
    console.log(
      `  ${label.padEnd(24)}${spread(painted(ours))}  ${spread(painted(reference))}  ` +
        `${`${median(kib(ours)).toFixed(0)} / ${median(kib(reference)).toFixed(0)}`.padEnd(22)}` +
        `${ratio.toFixed(2)} ${ratio <= TARGET_RATIO ? "met" : "MISSED"}`,
    );
  };
  line("first visit (cold)", results.oursFirst, results.refFirst);
  line("installed / repeat", results.oursInstalled, results.refRepeat);
  console.log(
    `  (installed: ours with its service worker controlling and caches warm, the worker throttled too: ${workers} worker target(s); ` +
      `SurveyJS's repeat visit with the HTTP cache warm)`,
  );
  console.log(
    `total ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${startLoad.toFixed(1)} at the start, ` +
      `${loadavg()[0]!.toFixed(1)} at the end (${cpus().length} cores)`,
  );
} finally {
  await cleanUp();
}

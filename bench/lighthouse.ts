/**
 * `npm run bench:lighthouse`: Lighthouse (the npm package) on four pages of the production build,
 * served by a demo-seeded server of the bench's own: the login page, the study list, a
 * participant's page and the instrument route, the last three signed in (the stored user is put
 * in localStorage before the audits, as the app keeps it; Lighthouse is told not to clear storage,
 * and the bench clears everything else itself: every run is a first visit).
 * Chromium is Debian's (/usr/bin/chromium, or CHROME_PATH), started by chrome-launcher.
 * Prints performance and accessibility per page and form factor (mobile: Lighthouse's default
 * throttling; desktop: its desktop preset), and what costs points. Targets: performance 95,
 * accessibility 100, with the metrics that make the performance score (first and largest
 * contentful paint, total blocking time) beside them. Asserts nothing. Flags: --runs 1 (the median
 * is printed), --form-factors mobile,desktop, --pages (names, comma-separated; all four by
 * default), --save DIR (each run's Lighthouse report as JSON, to see where the time goes).
 * Needs `npm run build` first.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type Result } from "lighthouse";
import { createPortalServer } from "../tests/e2e/support/server-process.ts";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "1" },
    "form-factors": { type: "string", default: "mobile,desktop" },
    pages: { type: "string", default: "login,study list,participant,instrument route" },
    save: { type: "string" },
  },
});
const RUNS = Number(flags.runs);
const FORM_FACTORS = flags["form-factors"].split(",") as ("mobile" | "desktop")[];
const PAGE_NAMES = flags.pages.split(",").map((name) => name.trim());
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs takes a positive whole number");
if (FORM_FACTORS.some((factor) => factor !== "mobile" && factor !== "desktop")) {
  throw new Error("--form-factors takes mobile and/or desktop");
}
if (!existsSync("dist/index.html")) throw new Error("No dist/: run npm run build first");

const CHROME_PATH =
  process.env.CHROME_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
// Without a Chromium, Playwright's launch below waits for a browser that never starts.
if (!CHROME_PATH) throw new Error("No Chromium: install Debian's chromium, or set CHROME_PATH");
const TARGETS = { performance: 95, accessibility: 100 };
/** Demo seed: participant 1 is at site 1011 of study 101. */
const PARTICIPANT_PAGE = "/studies/101/sites/1011/participants/1";

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Signs in through the page and finds an instrument of participant 1: the user and its URL. */
async function signInAndFindInstrument(serverUrl: string) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox"] });
  try {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await page.goto(`${serverUrl}/login`);
    await page.getByLabel("Username").fill("coordinator@demo.test");
    await page.getByLabel("Password", { exact: true }).fill("DemoPass1!");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(/\/studies$/);
    await page.goto(`${serverUrl}${PARTICIPANT_PAGE}`);
    await page.getByRole("tabpanel").getByRole("button").first().click();
    await page.waitForURL(/\/instruments\/\d+\//);
    const instrumentPath = new URL(page.url()).pathname + new URL(page.url()).search;
    const user = await page.evaluate(() => localStorage.getItem("user"));
    if (!user) throw new Error("Signing in stored no user");
    return { user, instrumentPath };
  } finally {
    await browser.close();
  }
}

/** The metrics the performance score is made of, ms (cumulative layout shift: none on any page). */
const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
} as const;
type Metrics = Record<keyof typeof METRICS, number>;
type Scores = { performance: number; accessibility: number; lost: string[] } & Metrics;
type Audit = { page: string; formFactor: string } & Scores;

function metricsOf(result: Result): Metrics {
  const value = (id: string) => Math.round(result.audits[id]?.numericValue ?? Number.NaN);
  return { fcp: value(METRICS.fcp), lcp: value(METRICS.lcp), tbt: value(METRICS.tbt) };
}

/** What costs points: failed accessibility audits, and the performance metrics below 0.9. */
function lostPoints(result: Result) {
  const lost: string[] = [];
  for (const ref of result.categories.accessibility?.auditRefs ?? []) {
    const audit = result.audits[ref.id];
    if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) lost.push(`a11y: ${audit.title}`);
  }
  for (const ref of result.categories.performance?.auditRefs ?? []) {
    const audit = result.audits[ref.id];
    if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
      lost.push(`perf: ${audit.title} ${audit.displayValue ?? ""}`.trim());
    }
  }
  return lost;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const startLoad = loadavg()[0]!;
const server = await createPortalServer(await freePort());
await server.start();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
const audits: Audit[] = [];
try {
  const { user, instrumentPath } = await signInAndFindInstrument(server.url);
  const pages = [
    { name: "login", path: "/login", signedIn: false },
    { name: "study list", path: "/studies", signedIn: true },
    { name: "participant", path: PARTICIPANT_PAGE, signedIn: true },
    { name: "instrument route", path: instrumentPath, signedIn: true },
  ].filter((target) => PAGE_NAMES.includes(target.name));
  if (pages.length === 0) throw new Error(`--pages names none of the four pages: ${flags.pages}`);
  // The launched Chromium's default profile, reached over CDP, holds the session Lighthouse sees.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  // Every audit is a first visit with a session: Lighthouse is told to keep storage (for the
  // session), so what it would otherwise clear is cleared here, everything but localStorage.
  // Without this, the second and later runs were served by the first run's service worker and
  // HTTP cache, and their medians were a warm start's.
  const setSession = async (signedIn: boolean) => {
    const page = await browser.contexts()[0]!.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await cdp.send("Storage.clearDataForOrigin", {
      origin: server.url,
      storageTypes: "cookies,indexeddb,service_workers,cache_storage,websql,file_systems",
    });
    await cdp.detach();
    await page.goto(`${server.url}/favicon.svg`);
    await page.evaluate(
      ({ stored, keep }) => {
        if (keep) {
          const fresh = { ...(JSON.parse(stored) as object), last_active: Date.now() };
          localStorage.setItem("user", JSON.stringify(fresh));
        } else {
          localStorage.removeItem("user");
        }
      },
      { stored: user, keep: signedIn },
    );
    await page.close();
  };
  for (const formFactor of FORM_FACTORS) {
    for (const target of pages) {
      const scores: Scores[] = [];
      for (let run = 0; run < RUNS; run++) {
        await setSession(target.signedIn);
        const options: Flags = {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          // The session set above is the point: Lighthouse must not clear it.
          disableStorageReset: true,
        };
        const answer = await lighthouse(
          `${server.url}${target.path}`,
          options,
          formFactor === "desktop" ? desktopConfig : undefined,
        );
        if (!answer) throw new Error(`Lighthouse gave no result for ${target.path}`);
        const result = answer.lhr;
        if (result.runtimeError) throw new Error(`${target.name}: ${result.runtimeError.message}`);
        if (flags.save) {
          mkdirSync(flags.save, { recursive: true });
          const name = `${target.name.replaceAll(" ", "-")}-${formFactor}-${run + 1}.json`;
          writeFileSync(`${flags.save}/${name}`, JSON.stringify(result));
        }
        scores.push({
          performance: Math.round((result.categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((result.categories.accessibility?.score ?? 0) * 100),
          lost: lostPoints(result),
          ...metricsOf(result),
        });
      }
      audits.push({
        page: target.name,
        formFactor,
        performance: median(scores.map((score) => score.performance)),
        accessibility: median(scores.map((score) => score.accessibility)),
        fcp: median(scores.map((score) => score.fcp)),
        lcp: median(scores.map((score) => score.lcp)),
        tbt: median(scores.map((score) => score.tbt)),
        lost: [...new Set(scores.flatMap((score) => score.lost))],
      });
      console.log(`${formFactor} ${target.name}: done`);
    }
  }
  await browser.close();
} finally {
  chrome.kill();
  await server.dispose();
}

console.log(
  `\nLighthouse on the production build (${RUNS} run${RUNS > 1 ? "s, median" : ""}); targets: performance ${TARGETS.performance}, accessibility ${TARGETS.accessibility}`,
);
console.log(
  `  ${"page".padEnd(20)}${"form factor".padEnd(13)}${"performance".padStart(12)}${"accessibility".padStart(15)}${"FCP ms".padStart(9)}${"LCP ms".padStart(9)}${"TBT ms".padStart(9)}`,
);
for (const audit of audits) {
  const mark = (score: number, target: number) => `${score}${score >= target ? "" : " *"}`.padStart(5);
  console.log(
    `  ${audit.page.padEnd(20)}${audit.formFactor.padEnd(13)}${mark(audit.performance, TARGETS.performance).padStart(12)}${mark(audit.accessibility, TARGETS.accessibility).padStart(15)}${[audit.fcp, audit.lcp, audit.tbt].map((ms) => String(ms).padStart(9)).join("")}`,
  );
}
console.log("  (* below target)");
for (const audit of audits.filter((entry) => entry.lost.length > 0)) {
  console.log(`  ${audit.page}, ${audit.formFactor}:`);
  for (const lost of audit.lost) console.log(`    ${lost}`);
}
console.log(`load average ${startLoad.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);

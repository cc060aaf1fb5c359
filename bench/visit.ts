/**
 * `npm run bench:visit`: time from the clinician pressing 'Start video visit' to the first frame
 * of the participant's video on the clinician's screen (requestVideoFrameCallback on the remote
 * video), over RUNS runs, on the built-in video service. Runs the real server (the production
 * build in BENCH_STATIC_DIR, default dist: run `npm run build` first) on a fresh embedded
 * database, and Chromium with a fake camera and microphone: the participant waits in the room
 * (join page), then the clinician presses the button.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { mailsTo } from "../tests/support/mail-drop.ts";

const RUNS = 5;
const PORT = Number(process.env.BENCH_PORT ?? 4291);
const STATIC_DIR = process.env.BENCH_STATIC_DIR ?? "dist";
const BASE = `http://localhost:${PORT}`;
const STUDY_ID = 102;
const SITE_ID = 1021;
/** A participant of SCZ-214's Remote Visits Hub with an email address (demo seed). */
const PARTICIPANT_ID = 93;
const PASSWORD = "DemoPass1!";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";

const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-bench-visit-"));
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    STATIC_DIR,
    SEED: "demo",
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
  },
  stdio: ["ignore", "inherit", "inherit"],
});

async function waitUntilHealthy() {
  for (let attempt = 0; attempt < 900; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the server did not start");
}

async function scheduleVisit() {
  const login = await fetch(`${BASE}/control/clinro/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "coordinator@demo.test", password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const answer = await fetch(`${BASE}/control/studies/${STUDY_ID}/sites/${SITE_ID}/clinro_visits`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "idempotency-key": crypto.randomUUID(),
    },
    body: JSON.stringify({
      participant_id: PARTICIPANT_ID,
      visit_time: new Date(Date.now() - 60_000).toISOString(),
      visit_duration: 120,
    }),
  });
  if (answer.status !== 201) throw new Error(`scheduling answered ${answer.status}`);
  const visit = (await answer.json()) as { lname: string; fname: string; participant_email: string };
  for (let attempt = 0; attempt < 100; attempt++) {
    const link = (await mailsTo(dataDir, visit.participant_email))
      .flatMap((mail) => mail.links)
      .findLast((candidate) => candidate.includes("/join/"));
    if (link) return { visit, joinPath: new URL(link).pathname };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no join link was mailed");
}

/** Records the button press and the remote video's first frame, in page time. */
function installTimers() {
  const marks = { pressed: 0, firstFrame: 0 };
  (globalThis as unknown as { __visitBench: typeof marks }).__visitBench = marks;
  document.addEventListener(
    "click",
    (event) => {
      const button = (event.target as Element).closest("button");
      if (button?.textContent?.includes("Start video visit")) {
        marks.pressed = performance.now();
        marks.firstFrame = 0;
      }
    },
    true,
  );
  new MutationObserver(() => {
    const video = document.querySelector<HTMLVideoElement & { benchHooked?: boolean }>(
      "[data-testid=remote-video]",
    );
    if (!video || video.benchHooked) return;
    video.benchHooked = true;
    video.requestVideoFrameCallback(() => {
      if (!marks.firstFrame) marks.firstFrame = performance.now();
    });
  }).observe(document, { subtree: true, childList: true });
}

const readMarks = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { __visitBench: { pressed: number; firstFrame: number } }).__visitBench,
  );

let browser;
try {
  await waitUntilHealthy();
  const { visit, joinPath } = await scheduleVisit();
  browser = await chromium.launch({
    executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
    ],
  });
  const clinician = await (await browser.newContext({ baseURL: BASE })).newPage();
  const participant = await (await browser.newContext({ baseURL: BASE })).newPage();
  await clinician.addInitScript(installTimers);

  await clinician.goto("/login");
  await clinician.getByLabel("Username").fill("coordinator@demo.test");
  await clinician.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await clinician.getByRole("button", { name: "Log in" }).click();
  await clinician.waitForURL(/\/studies$/);

  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await participant.goto(joinPath);
    await participant.getByRole("button", { name: "Join the visit" }).click();
    await participant.getByTestId("local-video").waitFor();

    await clinician.goto(`/studies/${STUDY_ID}/sites/${SITE_ID}/visits`);
    const row = clinician.getByRole("listitem").filter({ hasText: `${visit.lname}, ${visit.fname}` });
    await row.getByRole("button", { name: "Start video visit" }).click();
    await clinician.waitForFunction(
      () => (globalThis as unknown as { __visitBench: { firstFrame: number } }).__visitBench.firstFrame > 0,
      undefined,
      { timeout: 60_000 },
    );
    const marks = await readMarks(clinician);
    times.push(marks.firstFrame - marks.pressed);
    await clinician.getByRole("button", { name: "Hang up", exact: true }).click();
    await participant.getByText("The clinician ended the visit.").waitFor();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  console.log(`button to first remote frame (built-in WebRTC, n=${RUNS}):`);
  console.log(
    `  min ${sorted[0]?.toFixed(0)} ms  median ${median.toFixed(0)} ms  max ${sorted.at(-1)?.toFixed(0)} ms` +
      `  (runs: ${times.map((time) => time.toFixed(0)).join(", ")})`,
  );
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  await rm(dataDir, { recursive: true, force: true });
}

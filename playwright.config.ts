import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_DATA_DIR, E2E_STATIC_DIR } from "./tests/e2e/support/e2e-dirs.ts";

const PORT = Number(process.env.E2E_PORT ?? 4173);
// Lets a test answer requests that the service worker itself makes (Chromium only), so the
// worker's caches can be tested. Set here so that every test worker inherits it.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= "1";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Two cores: one for the server, one or two for the browsers.
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  // A safety net for a hung test, not a speed target. A test of two sign-ins, argon2 checks, axe
  // and screenshots at three sizes takes 10-20 s on an idle 2-core machine, and up to seven times
  // that on a busy CI host (the kitchen sink 16 s here, over 90 s there; a visit 20 s, 2.4 min).
  timeout: 150_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    viewport: { width: 1024, height: 768 },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1024, height: 768 },
        launchOptions: {
          // Debian's Chromium when present; a machine with Playwright's own browser uses that.
          executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: {
    // The real server serving the production build, on a fresh embedded database with demo data.
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx server/main.ts`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      STATIC_DIR: E2E_STATIC_DIR,
      SEED: "demo",
      LOG_LEVEL: "warn",
    },
  },
});

import { defineConfig } from "vitest/config";

/**
 * The cross-engine journeys (tests/engines): WebKit and Firefox through WebDriver, each against
 * a server of its own on the built app. Run apart from the unit and API tests (`npm run
 * test:engines`), one engine after the other: a browser and a server take both cores.
 */
export default defineConfig({
  test: {
    name: "engines",
    environment: "node",
    include: ["tests/engines/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    // A real browser on a busy two-core machine: a journey that failed once is run once more,
    // and says so in the report (a defect fails both times).
    retry: 1,
    hookTimeout: 120_000,
  },
});

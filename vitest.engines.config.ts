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
    // No second chance: a journey that fails once is a defect of the product or of the test,
    // and a retry would hide one that fails one time in two.
    retry: 0,
    hookTimeout: 120_000,
  },
});

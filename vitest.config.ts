import { lingui } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const plugins = [react({ babel: { plugins: ["@lingui/babel-plugin-lingui-macro"] } }), lingui()];

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify("test"), __ROUTE_FILES__: "[]" },
  test: {
    // Two cores: keep the suite parallel but light.
    maxWorkers: 2,
    projects: [
      {
        plugins,
        test: {
          // Logic needs no browser: a jsdom per file costs about half a second of the machine's
          // time. A logic test that uses the browser's storage or DOM says so in its first line
          // (`// @vitest-environment jsdom`).
          name: "unit",
          environment: "node",
          include: ["src/**/*.test.ts", "core/**/*.test.ts"],
        },
      },
      {
        plugins,
        test: {
          name: "components",
          environment: "jsdom",
          include: ["src/**/*.test.tsx"],
        },
      },
      {
        plugins,
        test: {
          name: "api",
          environment: "node",
          include: ["tests/api/**/*.test.ts", "server/**/*.test.ts", "tests/lint/**/*.test.ts"],
          // One migrated, demo-seeded database per engine, copied by every file's harness.
          globalSetup: ["tests/support/api-database-templates.ts"],
          testTimeout: 30_000,
          // A harness copies (or migrates and seeds) a database per file: slow when the machine is busy.
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

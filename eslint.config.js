import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginLingui from "eslint-plugin-lingui";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import localRules from "./eslint/no-cross-feature-imports.js";

/** Packages that draw UI or hold UI state: the survey engine and the outbox stay plain. */
const UI_PACKAGES = ["react", "react/*", "react-dom", "react-dom/*", "@tanstack/*", "@lingui/*"];
/** App folders above the plain layers (relative imports resolve to these names). */
const UI_FOLDERS = [
  "**/features/**",
  "**/widgets/**",
  "**/outbox-ui/**",
  "**/app/**",
  "**/survey/questions/**",
  "**/survey/runner/**",
];

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "data",
      ".e2e-data",
      // Builds and data of side-by-side runs (E2E_STATIC_DIR, E2E_DATA_DIR), as .gitignore has them.
      "dist-*",
      ".e2e-data-*",
      "test-results",
      "playwright-report",
      "dist-gallery",
      "src/i18n/locales",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ["src/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  { files: ["src/**/*.{ts,tsx}"], ...pluginLingui.configs["flat/recommended"] },
  {
    // Every text a person reads goes through Lingui.
    files: ["src/**/*.tsx"],
    // Stories are the developers' gallery: their sample data is not product text.
    ignores: ["src/**/*.test.tsx", "src/**/*.stories.tsx", "src/survey/questions/question-harness.tsx"],
    plugins: { lingui: pluginLingui },
    rules: {
      "lingui/no-unlocalized-strings": [
        "error",
        {
          ignore: ["^(?![A-Z])\\S+$", "^[A-Z0-9_-]+$", "^[^A-Za-z]*$"],
          ignoreNames: [
            { regex: { pattern: "className", flags: "i" } },
            { regex: { pattern: "^[A-Z0-9_]+$" } },
            { regex: { pattern: "^(to|href|id|key|type|role|name|autoComplete|inputMode|htmlFor|scope)$" } },
          ],
          ignoreFunctions: [
            "Error",
            "console.*",
            "*.getElementById",
            "*.querySelector*",
            "*.addEventListener",
          ],
        },
      ],
    },
  },
  {
    // The engine-like modules stay plain: no React, router or Lingui in the service worker.
    files: ["sw/**/*.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Layer rules (docs/architecture.md). Features do not import one another.
    files: ["src/features/**/*.{ts,tsx}"],
    plugins: { local: localRules },
    rules: { "local/no-cross-feature-imports": "error" },
  },
  {
    // The survey engine (also run by the server) and the outbox are plain TypeScript: they return
    // codes and data; the UI turns them into text and pixels.
    files: ["src/survey/engine/**/*.ts", "src/outbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: UI_PACKAGES,
              message: "The survey engine and the outbox import no React, router or Lingui.",
            },
            {
              group: UI_FOLDERS,
              message: "The survey engine and the outbox import nothing from the UI layers.",
            },
          ],
        },
      ],
    },
  },
  {
    // One door to the network: src/api/ (and the service worker, which is its own program).
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/api/**", "src/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Only src/api/ calls fetch: add a typed call there." },
        { name: "XMLHttpRequest", message: "Only src/api/ talks to the network." },
      ],
      "no-restricted-properties": [
        "error",
        ...["window", "globalThis", "self"].map((object) => ({
          object,
          property: "fetch",
          message: "Only src/api/ calls fetch: add a typed call there.",
        })),
      ],
    },
  },
  {
    // One door to the environment: server/env.ts parses it once (scripts, tests and benches may read it).
    files: ["server/**/*.ts"],
    ignores: ["server/env.ts", "server/**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Only server/env.ts reads process.env: add the variable there.",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:process",
              importNames: ["env"],
              message: "Only server/env.ts reads the environment.",
            },
            { name: "process", importNames: ["env"], message: "Only server/env.ts reads the environment." },
          ],
        },
      ],
    },
  },
  {
    // Type-aware rules where promises cross into callbacks: a dropped promise loses its error.
    files: ["src/**/*.{ts,tsx}", "server/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
);

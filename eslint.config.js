import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginLingui from "eslint-plugin-lingui";
import boundaries from "eslint-plugin-boundaries";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import localRules from "./eslint/local-rules.js";

/** The layers, as [element type, folder], highest first (src/main.tsx, the entry, stands above all). */
const LAYERS = [
  ["app", "src/app"],
  ["features", "src/features/*"],
  ["survey-ui", "src/survey"],
  ["outbox-ui", "src/outbox-ui"],
  ["auth", "src/auth"],
  ["api", "src/api"],
  ["video", "src/video"],
  ["widgets", "src/widgets"],
  ["i18n", "src/i18n"],
  ["outbox", "src/outbox"],
  ["engine", "core/survey-engine"],
  ["kernel", "core/contracts"],
  ["service-worker", "sw"],
];
const MIDDLE = ["survey-ui", "outbox-ui", "auth", "api", "video", "widgets", "i18n"];
const allow = (from, to) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } } },
});
/** Who may import whom: each layer its own and every layer below it. */
const LAYER_POLICIES = [
  allow("app", ["app", "features", ...MIDDLE, "outbox", "engine", "kernel"]),
  allow("features", ["features", ...MIDDLE, "outbox", "engine", "kernel"]),
  ...MIDDLE.map((layer) => allow(layer, [...MIDDLE, "outbox", "engine", "kernel"])),
  allow("outbox", ["outbox", "kernel"]),
  allow("engine", ["engine", "kernel"]),
  allow("kernel", ["kernel"]),
  allow("service-worker", ["service-worker", "outbox", "engine", "kernel"]),
];

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
    // Comments say why; the history of a change belongs in git and docs/.
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { local: localRules },
    rules: { "local/no-issue-citations": "error" },
  },
  {
    // Layer rules (docs/architecture.md). Features do not import one another.
    files: ["src/features/**/*.{ts,tsx}"],
    plugins: { local: localRules },
    rules: { "local/no-cross-feature-imports": "error" },
  },
  {
    // The kernel (contracts and survey engine, also run by the server), the outbox and the
    // service worker are plain TypeScript: they return codes and data; the UI turns them into
    // text and pixels.
    files: ["core/**/*.ts", "src/outbox/**/*.ts", "sw/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: UI_PACKAGES,
              message: "The kernel, the outbox and the service worker import no React, router or Lingui.",
            },
            {
              group: UI_FOLDERS,
              message: "The kernel, the outbox and the service worker import nothing from the UI layers.",
            },
          ],
        },
      ],
    },
  },
  {
    // One door to the network: src/api/ and the outbox's own transport (and the service worker,
    // which is its own program). A WebSocket is the network too.
    files: ["src/**/*.{ts,tsx}", "core/**/*.ts"],
    ignores: ["src/api/**", "src/outbox/send-item.ts", "src/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Only src/api/ calls fetch: add a typed call there." },
        { name: "XMLHttpRequest", message: "Only src/api/ talks to the network." },
        { name: "WebSocket", message: "Only src/api/ opens a WebSocket: add it there (openSignalSocket)." },
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
    // The layers (docs/architecture.md), enforced in every direction: a layer imports its own
    // and those below it, never those above. app > features > {survey UI, outbox UI, auth, api,
    // video, widgets, i18n} > {outbox, engine} > kernel; the service worker stands beside the
    // app and takes only the outbox, the engine and the kernel.
    files: ["src/**/*.{ts,tsx}", "core/**/*.ts", "sw/**/*.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js"] } },
      "boundaries/include": ["src/**/*", "core/**/*", "sw/**/*"],
      "boundaries/elements": LAYERS.map(([type, pattern]) => ({ type, pattern })),
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: LAYER_POLICIES,
        },
      ],
    },
  },
  {
    // No import cycles, in the app, the kernel, the service worker or the server: a circle of
    // modules is one module in disguise, and its load order is an accident.
    files: ["src/**/*.{ts,tsx}", "core/**/*.ts", "sw/**/*.ts", "server/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: { "import-x/extensions": [".ts", ".tsx", ".js"] },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Type-aware rules where promises cross into callbacks: a dropped promise loses its error.
    // The product's code and the server's tests (one TypeScript program each for the app and the
    // server). Not the app's unit tests and the gallery's stories: they are projects of their own
    // (tsconfig.app-tests.json, tsconfig.stories.json), and typing them builds two more
    // programs of the whole app.
    files: ["src/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: [
      "src/**/*.test.{ts,tsx}",
      "src/**/*.stories.tsx",
      "src/survey/questions/question-harness.tsx",
      "src/outbox/fake-events-server.ts",
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
);

import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginLingui from "eslint-plugin-lingui";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "data",
      ".e2e-data",
      "test-results",
      "playwright-report",
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
    ignores: ["src/**/*.test.tsx"],
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
);

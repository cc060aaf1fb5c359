import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

/**
 * Where the catalogs live. `npm run i18n:check` extracts into a temporary copy instead
 * (LINGUI_CATALOG_DIR, see scripts/check-i18n.ts) and compares, so a check never rewrites them.
 */
const catalogDir = process.env.LINGUI_CATALOG_DIR ?? "<rootDir>/src/i18n/locales";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "es", "fr", "de", "pt-BR"],
  catalogs: [
    {
      path: `${catalogDir}/{locale}/messages`,
      include: ["<rootDir>/src"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/*.stories.tsx"],
    },
  ],
  // No source line references: catalogs change only when messages do.
  format: formatter({ origins: false, lineNumbers: false }),
  orderBy: "messageId",
});

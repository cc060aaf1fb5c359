import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Fails the test on any axe violation of serious or critical impact.
 *
 * Legacy mode runs axe in the page and its frames and merges the results there, instead of
 * opening a blank page per check to merge them in (half the time of a check). What it gives up,
 * frames of another origin, the app cannot have: its Content-Security-Policy allows only its own
 * frames (frame-src 'self' blob:).
 */
export async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
  expect(serious).toEqual([]);
}

/**
 * Screenshots of a page at the sizes a clinician uses it (tablet landscape and portrait, phone),
 * for people to look at; nothing compares them. They go under SCREENS_DIR (default
 * test-results/screens), one folder per area, so that any machine can write them.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";

export const SCREEN_SIZES = [
  { name: "1024x768", width: 1024, height: 768 },
  { name: "768x1024", width: 768, height: 1024 },
  { name: "390x844", width: 390, height: 844 },
] as const;

export function screensDir(area: string) {
  return path.resolve(process.env.SCREENS_DIR ?? path.join("test-results", "screens"), area);
}

/** `<area>/<name>-<size>.png` at every size; the viewport is given back as it was. */
export async function screenshotAtSizes(page: Page, area: string, name: string, { fullPage = true } = {}) {
  const folder = screensDir(area);
  await mkdir(folder, { recursive: true });
  const original = page.viewportSize();
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.screenshot({ path: path.join(folder, `${name}-${size.name}.png`), fullPage });
  }
  if (original) await page.setViewportSize(original);
}

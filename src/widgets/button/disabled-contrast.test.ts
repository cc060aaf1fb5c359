import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The stylesheets as written (a CSS import is empty under the test runner); run from the root.
const styles = readFileSync(path.resolve("src/app/styles.css"), "utf8");
const richTextStyles = readFileSync(
  path.resolve("src/widgets/rich-text-editor/rich-text-editor.css"),
  "utf8",
);

/** A colour custom property of the app's stylesheet (#rrggbb). */
function colour(name: string) {
  const found = new RegExp(`${name}:\\s*(#[0-9a-f]{6})\\b`, "i").exec(styles)?.[1];
  if (!found) throw new Error(`${name} is not a #rrggbb colour in styles.css`);
  return found;
}

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The declarations of the first rule whose selector list starts with `selector`. */
function ruleOf(css: string, selector: string) {
  const at = css.indexOf(`${selector}`);
  if (at < 0) throw new Error(`no rule for ${selector}`);
  return css.slice(css.indexOf("{", at) + 1, css.indexOf("}", at));
}

describe("disabled buttons stay legible", () => {
  it("their text reads at 4.5:1 or more on their face", () => {
    expect(contrast(colour("--color-disabled-text"), colour("--color-disabled-bg"))).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  it("every button's disabled and busy states use those colours, not a fade", () => {
    const rule = ruleOf(styles, '.button:disabled,\n.button[aria-disabled="true"]');
    expect(rule).toContain("background: var(--color-disabled-bg)");
    expect(rule).toContain("color: var(--color-disabled-text)");
    expect(ruleOf(styles, '.button[aria-disabled="true"] {')).not.toContain("opacity");
  });

  it("the rich text editor's disabled tool reads at 4.5:1 or more on white", () => {
    const tool = /color:\s*(#[0-9a-f]{6})/i.exec(
      ruleOf(richTextStyles, ".rich-text-editor__button[data-disabled]"),
    )?.[1];
    expect(tool).toBeDefined();
    expect(contrast(tool!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
});

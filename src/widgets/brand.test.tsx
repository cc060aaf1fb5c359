import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import installIcon from "../../public/favicon.svg?raw";
import { BrandMark, LogoMark, PRODUCT_NAME, logoNameClass, logoSize } from "./brand.tsx";

const name = (length: number) => "x".repeat(length);

describe("the logo class by name length (spec 01 section 9)", () => {
  it.each([
    [1, "short"],
    [14, "short"],
    [15, "medium"],
    [24, "medium"],
    [25, "long"],
    [60, "long"],
  ] as const)("a name of %i characters is %s", (length, size) => {
    expect(logoSize(name(length))).toBe(size);
    expect(logoNameClass(name(length))).toBe(`brand__name brand__name--${size}`);
  });

  it("counts characters as a reader does: an accented letter or an emoji is one", () => {
    expect(logoSize("é".repeat(14))).toBe("short");
    expect(logoSize("🏥".repeat(15))).toBe("medium");
  });

  it("ignores surrounding spaces", () => {
    expect(logoSize(`  ${name(14)}  `)).toBe("short");
  });

  it("the product name is short", () => {
    expect(logoSize(PRODUCT_NAME)).toBe("short");
  });

  it("renders the class on the name beside the product's mark", () => {
    const { container } = render(<BrandMark name="Boston Clinical Research Center" />);
    expect(container.querySelector(".brand__name")?.className).toBe("brand__name brand__name--long");
    expect(container.querySelector("svg.brand__mark")?.getAttribute("aria-hidden")).toBe("true");
  });
});

/** An SVG's drawing: its view box and each shape with its attributes, in order. */
function drawingOf(svg: Element) {
  return {
    viewBox: svg.getAttribute("viewBox"),
    shapes: [...svg.children].map((shape) => ({
      tag: shape.tagName.toLowerCase(),
      attributes: Object.fromEntries([...shape.attributes].map((a) => [a.name, a.value])),
    })),
  };
}

describe("the logo is the install icon", () => {
  it("draws what public/favicon.svg, the source of the manifest's icons, draws", () => {
    const icon = new DOMParser().parseFromString(installIcon, "image/svg+xml").documentElement;
    const { container } = render(<LogoMark />);
    const mark = container.querySelector("svg.brand__mark");
    expect(mark).not.toBeNull();
    expect(drawingOf(mark!)).toEqual(drawingOf(icon));
    expect(drawingOf(icon).shapes.map((shape) => shape.tag)).toEqual(["rect", "path", "circle"]);
  });
});

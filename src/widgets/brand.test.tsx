import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BrandMark, PRODUCT_NAME, logoNameClass, logoSize } from "./brand.tsx";

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

  it("renders the class on the name and the initial on the mark", () => {
    const { container } = render(<BrandMark name="Boston Clinical Research Center" />);
    expect(container.querySelector(".brand__name")?.className).toBe("brand__name brand__name--long");
    expect(container.querySelector(".brand__mark")?.textContent).toBe("B");
  });
});

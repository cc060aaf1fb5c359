// @vitest-environment jsdom (the DOM the sanitiser parses into)
import { describe, expect, it } from "vitest";
import { ALLOWED_SAMPLE, XSS_PAYLOADS, unsafeParts } from "../../../tests/support/xss-payloads.ts";
import { sanitizeAnnouncementForDisplay } from "./safe-html.ts";

/** Every element of the HTML, as the browser parses it. */
function elementsOf(html: string) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return [...template.content.querySelectorAll("*")].map((element) => ({
    tag: element.localName,
    attributes: Object.fromEntries(
      [...element.attributes].map((attribute) => [attribute.name, attribute.value]),
    ),
  }));
}

describe("the browser's sanitiser for announcements (DOMPurify)", () => {
  it.each(XSS_PAYLOADS)("leaves nothing unsafe of: $name", ({ html }) => {
    const clean = sanitizeAnnouncementForDisplay(html);
    expect(unsafeParts(elementsOf(clean))).toEqual([]);
    expect(clean).not.toMatch(/<script|javascript:|vbscript:|data:|onerror|onload|onclick/i);
  });

  it("keeps the allowed tags and safe links, which open in a new tab without an opener", () => {
    const clean = sanitizeAnnouncementForDisplay(ALLOWED_SAMPLE);
    expect(elementsOf(clean).map((element) => element.tag)).toEqual(
      elementsOf(ALLOWED_SAMPLE).map((element) => element.tag),
    );
    const links = elementsOf(clean).filter((element) => element.tag === "a");
    expect(links.map((link) => link.attributes)).toEqual([
      { href: "https://example.org/a?b=1&c=2", target: "_blank", rel: "noopener noreferrer" },
      { href: "mailto:team@example.org", target: "_blank", rel: "noopener noreferrer" },
    ]);
  });

  it("keeps a refused link's text without its address", () => {
    expect(sanitizeAnnouncementForDisplay('<p>see <a href="javascript:alert(1)">here</a></p>')).toBe(
      "<p>see <a>here</a></p>",
    );
  });
});

import { parseDocument } from "htmlparser2";
import type { ChildNode } from "domhandler";
import { describe, expect, it } from "vitest";
import {
  ALLOWED_SAMPLE,
  XSS_PAYLOADS,
  unsafeParts,
  type LeftElement,
} from "../../tests/support/xss-payloads.ts";
import { announcementText, sanitizeAnnouncementHtml } from "./sanitize-announcement.ts";

/** Every element of the HTML, as a browser-like parser reads it (entities decoded). */
function elementsOf(html: string): LeftElement[] {
  const found: LeftElement[] = [];
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === "tag" || node.type === "script" || node.type === "style") {
        found.push({ tag: node.name, attributes: { ...node.attribs } });
        walk(node.children);
      }
    }
  };
  walk(parseDocument(html).children);
  return found;
}

describe("the server's allow-list for announcements", () => {
  it.each(XSS_PAYLOADS)("leaves nothing unsafe of: $name", ({ html }) => {
    const clean = sanitizeAnnouncementHtml(html);
    expect(unsafeParts(elementsOf(clean))).toEqual([]);
    expect(clean).not.toMatch(/<script|javascript:|vbscript:|data:|onerror|onload|onclick/i);
  });

  it("keeps the allowed tags and safe links, which open in a new tab without an opener", () => {
    const clean = sanitizeAnnouncementHtml(ALLOWED_SAMPLE);
    expect(elementsOf(clean).map((element) => element.tag)).toEqual(
      elementsOf(ALLOWED_SAMPLE).map((element) => element.tag),
    );
    expect(clean).toContain(
      '<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">web</a>',
    );
    expect(clean).toContain(
      '<a href="mailto:team@example.org" target="_blank" rel="noopener noreferrer">mail</a>',
    );
  });

  it("keeps the text of a link whose address is refused, and of dropped tags other than code", () => {
    expect(sanitizeAnnouncementHtml('<p>see <a href="javascript:alert(1)">here</a></p>')).toBe(
      "<p>see <a>here</a></p>",
    );
    expect(sanitizeAnnouncementHtml("<div><span>kept</span></div><script>dropped()</script>")).toBe("kept");
  });

  it("finds no text in HTML that has none", () => {
    expect(announcementText(sanitizeAnnouncementHtml("<p> &nbsp; </p><br><script>x</script>"))).toBe("");
    expect(announcementText("<p>x</p>")).toBe("x");
  });
});

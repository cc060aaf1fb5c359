/**
 * A corpus of cross-site scripting payloads for the announcement sanitisers (the server's
 * allow-list, server/announcements/sanitize-announcement.ts, and the browser's DOMPurify wrapper,
 * src/features/inbox/safe-html.ts), and one check of what a sanitiser left: each test parses
 * the output with its own parser and hands the elements here.
 */
import {
  ANNOUNCEMENT_ALLOWED_TAGS,
  ANNOUNCEMENT_LINK_REL,
  ANNOUNCEMENT_LINK_TARGET,
} from "../../core/contracts/announcements.ts";

export const XSS_PAYLOADS: { name: string; html: string }[] = [
  { name: "script tag", html: "<script>alert(1)</script><p>after</p>" },
  { name: "upper-case script with src", html: "<SCRIPT SRC=//evil.test/x.js></SCRIPT>" },
  { name: "split script tag", html: "<scr<script>ipt>alert(1)</scr</script>ipt>" },
  { name: "img onerror", html: "<img src=x onerror=alert(1)>" },
  { name: "onclick on an allowed tag", html: '<p onclick="alert(1)">click</p>' },
  { name: "onmouseover on a safe link", html: '<a href="https://ok.test" onmouseover="alert(1)">x</a>' },
  { name: "javascript: link", html: '<a href="javascript:alert(1)">x</a>' },
  { name: "mixed-case javascript: link", html: '<a href="JaVaScRiPt:alert(1)">x</a>' },
  { name: "javascript: after spaces", html: '<a href="   javascript:alert(1)">x</a>' },
  { name: "javascript: with an encoded tab", html: '<a href="java&#x09;script:alert(1)">x</a>' },
  { name: "javascript: with a raw newline", html: '<a href="java\nscript:alert(1)">x</a>' },
  { name: "javascript: with a NUL", html: '<a href="java\u0000script:alert(1)">x</a>' },
  {
    name: "javascript: in decimal entities",
    html: '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  },
  { name: "javascript: in hex entities and &colon;", html: '<a href="&#x6A;avascript&colon;alert(1)">x</a>' },
  { name: "javascript: with an entity colon", html: '<a href="javascript&#58;alert(1)">x</a>' },
  { name: "javascript: with zero-padded entities", html: '<a href="&#0000106avascript:alert(1)">x</a>' },
  {
    name: "data: link",
    html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  },
  { name: "upper-case data: link", html: '<a href="DATA:text/html,<script>alert(1)</script>">x</a>' },
  { name: "vbscript: link", html: '<a href="vbscript:msgbox(1)">x</a>' },
  { name: "mixed-case vbscript: link", html: '<a href="VbScRiPt:msgbox(1)">x</a>' },
  { name: "protocol-relative link", html: '<a href="//evil.test/x">x</a>' },
  {
    name: "a safe link told to open in the same tab",
    html: '<a href="https://ok.test" target="_self" rel="opener">x</a>',
  },
  { name: "svg onload", html: "<svg onload=alert(1)><circle r=1 /></svg>" },
  { name: "svg link", html: '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>' },
  { name: "svg script", html: "<svg><script>alert(1)</script></svg>" },
  {
    name: "math mutation",
    html: "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  },
  { name: "math link", html: '<math href="javascript:alert(1)">x</math>' },
  { name: "style tag", html: "<style>body{background:url(javascript:alert(1))}</style><p>x</p>" },
  { name: "style attribute", html: '<p style="background:url(javascript:alert(1))">x</p>' },
  { name: "iframe", html: '<iframe src="javascript:alert(1)"></iframe>' },
  { name: "iframe srcdoc", html: '<iframe srcdoc="<script>alert(1)</script>"></iframe>' },
  {
    name: "form with a javascript: action",
    html: '<form action="javascript:alert(1)"><button>go</button></form>',
  },
  { name: "form input with autofocus", html: "<form><input autofocus onfocus=alert(1)></form>" },
  { name: "object", html: '<object data="javascript:alert(1)"></object>' },
  { name: "embed", html: '<embed src="javascript:alert(1)">' },
  { name: "body onload", html: "<body onload=alert(1)><p>x</p></body>" },
  { name: "meta refresh", html: '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">' },
  { name: "base href", html: '<base href="javascript:alert(1)//"><a href="x">x</a>' },
  { name: "details ontoggle", html: "<details open ontoggle=alert(1)><summary>x</summary></details>" },
  {
    name: "noscript mutation",
    html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  },
  { name: "comment mutation", html: '<!--<img src="--><img src=x onerror=alert(1)//">' },
  { name: "template", html: "<template><script>alert(1)</script></template>" },
  { name: "video source onerror", html: '<video><source onerror="alert(1)"></video>' },
  { name: "cite on a blockquote", html: '<blockquote cite="javascript:alert(1)">q</blockquote>' },
  { name: "id and class for clobbering", html: '<p id="cookie" class="x" name="y">x</p>' },
];

/** An element a sanitiser left, as its test parsed it. */
export type LeftElement = { tag: string; attributes: Record<string, string> };

const ALLOWED = new Set<string>(ANNOUNCEMENT_ALLOWED_TAGS);
const SAFE_HREF = /^(?:https?|mailto):/i;

/** What is unsafe in a sanitiser's output: empty when nothing is. */
export function unsafeParts(elements: LeftElement[]): string[] {
  const problems: string[] = [];
  for (const { tag, attributes } of elements) {
    if (!ALLOWED.has(tag)) problems.push(`tag <${tag}>`);
    for (const [name, value] of Object.entries(attributes)) {
      if (tag !== "a" || !["href", "target", "rel"].includes(name))
        problems.push(`<${tag} ${name}="${value}">`);
    }
    if (tag === "a" && attributes.href !== undefined) {
      if (!SAFE_HREF.test(attributes.href)) problems.push(`href "${attributes.href}"`);
      if (attributes.target !== ANNOUNCEMENT_LINK_TARGET) problems.push(`target "${attributes.target}"`);
      if (attributes.rel !== ANNOUNCEMENT_LINK_REL) problems.push(`rel "${attributes.rel}"`);
    }
  }
  return problems;
}

/** Allowed HTML that must come through both sanitisers with its meaning intact. */
export const ALLOWED_SAMPLE =
  "<h2>Title</h2><h3>Sub</h3><h4>Small</h4><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s><br>next</p>" +
  "<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote>" +
  '<p><a href="https://example.org/a?b=1&amp;c=2">web</a> <a href="mailto:team@example.org">mail</a></p>';

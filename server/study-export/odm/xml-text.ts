/**
 * Writing XML by hand, safely: every attribute value and text node of an ODM export goes
 * through these, so a label or an answer holding `<`, `&`, quotes, a line break or a character
 * XML 1.0 cannot carry at all (a control character, a lone surrogate) never breaks the document.
 *
 * A string builder rather than a DOM: the export streams, and a document of 100,000 submissions
 * must never be held in memory as a tree.
 */

/** Characters XML 1.0 cannot hold, even escaped: they become U+FFFD (the replacement character). */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Any character that needs work in text or an attribute; most values hold none. */
const NEEDS_ESCAPING = /[&<>"\t\n\r]|[^\u0020-\uD7FF\uE000-\uFFFD]/u;

/** Text content: & and < must be escaped, > is escaped so that "]]>" cannot appear. */
export function escapeText(value: string): string {
  if (!NEEDS_ESCAPING.test(value)) return value;
  return value
    .replace(NOT_XML_CHARACTER, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * An attribute value in double quotes: besides the text escapes, quotes, and line breaks and
 * tabs as character references (a parser turns raw ones into spaces when it reads the value).
 */
export function escapeAttribute(value: string): string {
  if (!NEEDS_ESCAPING.test(value)) return value;
  return escapeText(value)
    .replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

export type Attributes = Record<string, string | number | undefined>;

/** ` A="1" B="x"`, leaving out the attributes whose value is undefined. */
export function attributes(values: Attributes): string {
  let written = "";
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    written += ` ${name}="${escapeAttribute(String(value))}"`;
  }
  return written;
}

/** An element: empty when it has no content, otherwise with the (already written) content. */
export function element(name: string, values: Attributes, content: string | readonly string[] = ""): string {
  const inner = typeof content === "string" ? content : content.join("");
  return inner === ""
    ? `<${name}${attributes(values)}/>`
    : `<${name}${attributes(values)}>${inner}</${name}>`;
}

/** An element holding only text (escaped here). */
export function textElement(name: string, text: string, values: Attributes = {}): string {
  return `<${name}${attributes(values)}>${escapeText(text)}</${name}>`;
}

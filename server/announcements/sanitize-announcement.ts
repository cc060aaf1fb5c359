/**
 * The server's allow-list for an announcement's HTML, applied when it is stored: the tags of
 * ANNOUNCEMENT_ALLOWED_TAGS, a link's href when it is http, https or mailto, nothing else. Every
 * kept link opens in a new tab without access to the portal (target and rel set here, whatever
 * the author sent). Script, style and the like go with their content; other unknown tags are
 * dropped and their text kept. The app sanitises again when it shows the HTML (DOMPurify).
 */
import sanitizeHtml from "sanitize-html";
import {
  ANNOUNCEMENT_ALLOWED_SCHEMES,
  ANNOUNCEMENT_ALLOWED_TAGS,
  ANNOUNCEMENT_LINK_REL,
  ANNOUNCEMENT_LINK_TARGET,
} from "../../core/contracts/announcements.ts";

const SAFE_HREF = new RegExp(`^(${ANNOUNCEMENT_ALLOWED_SCHEMES.join("|")}):`);

/**
 * An absolute http, https or mailto address. The parser has decoded entities already; control
 * characters and spaces, which browsers skip inside a scheme, are removed before looking.
 * (sanitize-html checks the scheme again after this.)
 */
function isSafeHref(href: string | undefined): href is string {
  if (!href) return false;
  // eslint-disable-next-line no-control-regex
  const normalised = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  return SAFE_HREF.test(normalised);
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ANNOUNCEMENT_ALLOWED_TAGS],
  allowedAttributes: { a: ["href", "target", "rel"] },
  allowedSchemes: [...ANNOUNCEMENT_ALLOWED_SCHEMES],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  allowedClasses: {},
  allowedStyles: {},
  // Dropped with everything inside: code and what a browser would treat as raw text.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "iframe",
    "object",
    "embed",
    "template",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "svg",
    "math",
    "select",
  ],
  disallowedTagsMode: "discard",
  // What a rich text editor writes for the allowed meanings.
  transformTags: {
    b: "strong",
    i: "em",
    strike: "s",
    del: "s",
    h1: "h2",
    h5: "h4",
    h6: "h4",
    // A link without a safe absolute address loses it: an <a> without href is inert text (no
    // link, not focusable). (Renaming it to a dropped tag instead trips sanitize-html, which then
    // closes the next link with that name.)
    a: (tagName, attribs): sanitizeHtml.Tag =>
      isSafeHref(attribs.href)
        ? {
            tagName,
            attribs: { href: attribs.href, target: ANNOUNCEMENT_LINK_TARGET, rel: ANNOUNCEMENT_LINK_REL },
          }
        : { tagName, attribs: {} },
  },
};

export function sanitizeAnnouncementHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The text a reader would see, without tags: an announcement whose content has none is refused. */
export function announcementText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;|\s/g, "")
    .trim();
}

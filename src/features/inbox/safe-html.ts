/**
 * The browser's sanitiser for an announcement's HTML, applied every time one is shown, after the
 * server's (server/announcements/sanitize-announcement.ts): the same allow-list (tags of
 * ANNOUNCEMENT_ALLOWED_TAGS, a link's href when absolute http, https or mailto), with DOMPurify.
 * Every kept link opens in a new tab without access to the portal (target and rel set here);
 * a link with any other address loses it. The hook lives on this module's own DOMPurify
 * instance, so no other use of DOMPurify is affected.
 */
import createDOMPurify, { type Config } from "dompurify";
import {
  ANNOUNCEMENT_ALLOWED_SCHEMES,
  ANNOUNCEMENT_ALLOWED_TAGS,
  ANNOUNCEMENT_LINK_REL,
  ANNOUNCEMENT_LINK_TARGET,
} from "../../../core/contracts/announcements.ts";

const SAFE_HREF = new RegExp(`^(?:${ANNOUNCEMENT_ALLOWED_SCHEMES.join("|")}):`, "i");

const CONFIG: Config = {
  ALLOWED_TAGS: [...ANNOUNCEMENT_ALLOWED_TAGS],
  ALLOWED_ATTR: ["href", "target", "rel"],
  ALLOWED_URI_REGEXP: SAFE_HREF,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Dropped with their content, not only their tags.
  FORBID_CONTENTS: [
    "script",
    "style",
    "template",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
    "noscript",
    "textarea",
    "select",
    "title",
  ],
  KEEP_CONTENT: true,
};

let purifier: ReturnType<typeof createDOMPurify> | undefined;

function instance() {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = node.getAttribute("href");
    if (href === null || !SAFE_HREF.test(href.trim())) {
      node.removeAttribute("href");
      node.removeAttribute("target");
      node.removeAttribute("rel");
      return;
    }
    node.setAttribute("target", ANNOUNCEMENT_LINK_TARGET);
    node.setAttribute("rel", ANNOUNCEMENT_LINK_REL);
  });
  return purifier;
}

/** The HTML safe to put into the page (a string: set with dangerouslySetInnerHTML). */
export function sanitizeAnnouncementForDisplay(html: string): string {
  return instance().sanitize(html, { ...CONFIG, RETURN_TRUSTED_TYPE: false }) as string;
}

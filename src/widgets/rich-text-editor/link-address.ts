/**
 * What a link typed into the editor may point to: a web page (https or http) or an email
 * (mailto). A bare address ("example.org/page") is taken as https. Anything else (javascript:,
 * data:, a relative path) is refused: null.
 */
const ALLOWED_PROTOCOLS = new Set(["https:", "http:", "mailto:"]);
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function linkAddress(typed: string): string | null {
  const text = typed.trim();
  if (text === "" || /\s/.test(text)) return null;
  const candidate = HAS_SCHEME.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  if (url.protocol === "mailto:") return url.pathname.includes("@") ? candidate : null;
  // A host with a dot (or localhost): "https://hello" is almost always a typo.
  if (!url.hostname.includes(".") && url.hostname !== "localhost") return null;
  return url.href;
}

/**
 * The hand-over of the early definition download. index.html loads early-definition-start.ts
 * (built as its own tiny classic script) ahead of the app: on an instrument route it starts the
 * definition call while the app's JavaScript is still downloading, and leaves the pending
 * response here, on the window. The route loader takes it once, when it is for the very URL the
 * loader would fetch; otherwise (another URL, no early script, a second load) it fetches as
 * before. Owns the one slot on the window; the response itself is read by request.ts, so every
 * rule of a request (errors, 401 and 403, the service worker's cache) applies to it unchanged.
 *
 * It lives in src/api because it (and its start script) calls fetch: the house rule keeps fetch
 * in src/api and sw.
 */
import { authorizedHeaders } from "./request-url.ts";

export type EarlyDefinition = {
  /** The URL fetched, as definitionUrl() builds it. */
  url: string;
  /** The token it was sent with: a response for another session is not taken. */
  token: string;
  response: Promise<Response>;
};

const SLOT = "__clinroEarlyDefinition";

type WithSlot = { [SLOT]?: EarlyDefinition };

/** Starts the definition call for url with the token (the start script calls this). */
export function startEarlyDefinition(url: string, token: string, target: object = globalThis) {
  const response = fetch(url, { method: "GET", headers: authorizedHeaders(token) });
  // Nobody may take it (another route wins the race): a network failure is not unhandled.
  response.catch(() => undefined);
  (target as WithSlot)[SLOT] = { url, token, response };
}

/**
 * The early response for url sent with token, once: the slot is emptied whatever it held, so a
 * retry or a later visit downloads afresh.
 */
export function takeEarlyDefinition(
  url: string,
  token: string | undefined,
  target: object = globalThis,
): Promise<Response> | undefined {
  const slot = target as WithSlot;
  const early = slot[SLOT];
  if (!early) return undefined;
  delete slot[SLOT];
  return early.url === url && early.token === token ? early.response : undefined;
}

/**
 * Asks for a page's own files (its lazy chunk, the chunks only it imports, its CSS) beside the
 * app's, instead of once the app has run and the router has matched the route (the pages are
 * listed in src/app/early-route-pages.ts). The route's import() then finds them downloaded.
 * Files already asked for are skipped.
 */
export function preloadRouteFiles(files: readonly string[], doc: Document = document) {
  for (const file of files) {
    const isStyle = file.endsWith(".css");
    const rel = isStyle ? "preload" : "modulepreload";
    if (doc.head.querySelector(`link[rel="${rel}"][href="${file}"]`)) continue;
    const link = doc.createElement("link");
    link.rel = rel;
    if (isStyle) link.setAttribute("as", "style");
    // As Vite's own preloads: a request of another mode would not be reused by the import().
    link.crossOrigin = "";
    link.href = file;
    doc.head.appendChild(link);
  }
}

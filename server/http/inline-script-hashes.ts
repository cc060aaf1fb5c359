/**
 * The one inline script the portal has: index.html's early start (src/app/early-definition-start.ts,
 * inlined by vite.config.ts so that it runs before the browser has asked for anything else). The
 * Content-Security-Policy allows it by its SHA-256, never by 'unsafe-inline': a script injected
 * into a page has another hash and is refused.
 */
import { createHash } from "node:crypto";
import { statSync, readFileSync } from "node:fs";
import path from "node:path";

/** A <script> element without a src attribute, and its text. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** The CSP sources ('sha256-…') of the HTML's inline scripts, in document order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, text] of html.matchAll(INLINE_SCRIPT)) {
    if (!text) continue;
    hashes.push(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return hashes;
}

/**
 * The hashes of the built app's index.html. Asked with `fresh` (for an answer that is the shell
 * itself), the file is looked at again and read again when it changed: a rebuild is served without
 * a restart (see static-app.ts). Asked without it (every other answer: JSON, assets, files), the
 * last hashes read are given without touching the disk: a policy's script hashes only matter in
 * the document they came with, and a stat for each API call was a system call each.
 * None while there is no index.html.
 */
export function indexHtmlScriptHashes(staticDir: string): (fresh: boolean) => readonly string[] {
  const file = path.join(path.resolve(staticDir), "index.html");
  let seen: string | undefined;
  let hashes: readonly string[] = [];
  const refresh = () => {
    try {
      const stat = statSync(file);
      const stamp = `${stat.mtimeMs}:${stat.size}`;
      if (stamp !== seen) {
        hashes = inlineScriptHashes(readFileSync(file, "utf8"));
        seen = stamp;
      }
    } catch {
      // No index.html (not built yet, or gone mid-rebuild): none, and the next fresh ask looks again.
      seen = "";
      hashes = [];
    }
  };
  return (fresh) => {
    if (fresh || seen === undefined) refresh();
    return hashes;
  };
}

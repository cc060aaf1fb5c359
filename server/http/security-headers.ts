/**
 * The browser-side protections every answer carries (OWASP's secure headers):
 * - a Content-Security-Policy whose only inline script is index.html's early start, allowed by
 *   its hash (inline-script-hashes.ts; never 'unsafe-inline' or eval), no plugins
 *   (object-src 'none'), no <base> but our own, never framed (frame-ancestors 'none');
 * - a Permissions-Policy that gives the camera and microphone (video visits, photo questions) to
 *   the portal's own origin alone and turns other powerful features off;
 * - Strict-Transport-Security when the request came over TLS, or always when the portal is told
 *   it is behind a TLS-terminating proxy (BEHIND_TLS_PROXY);
 * - Cache-Control: no-store on /control answers, which carry a token or a person's data, unless
 *   the route chose its own (definitions are no-cache: the service worker keeps them itself).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export type SecurityHeaderOptions = {
  /** The portal is reached through a proxy that terminates TLS: HSTS on every answer. */
  behindTlsProxy?: boolean;
  /** Virtual visits use Agora: its SDK talks to Agora's servers. */
  agora?: boolean;
  /**
   * The CSP sources of the served index.html's inline scripts ('sha256-…'), asked per answer:
   * `fresh` when the answer is an HTML document (the shell), which must carry its own file's.
   */
  scriptHashes?: (fresh: boolean) => readonly string[];
};

/** Where the Agora Web SDK connects (gateways, edge servers, its statistics collector). */
const AGORA_CONNECT_SOURCES = [
  "https://*.agora.io",
  "wss://*.agora.io",
  "https://*.sd-rtn.com",
  "wss://*.sd-rtn.com",
  "https://*.agoraio.cn",
  "wss://*.agoraio.cn",
];

/** A year; not includeSubDomains: the portal does not know what else runs under its domain. */
const HSTS = "max-age=31536000";

/**
 * React sets style attributes (progress bars, the signature pad's size, hidden print frames):
 * style-src-attr allows those, never a <style> element or a stylesheet from elsewhere.
 */
export function contentSecurityPolicy({
  agora = false,
  scriptHashes = [],
}: { agora?: boolean; scriptHashes?: readonly string[] } = {}) {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptHashes],
    // React Aria's overlays (the filter box) insert a <style> element of their own: styles only,
    // never script. Scripts stay 'self' without inline.
    "style-src": ["'self'", "'unsafe-inline'"],
    "style-src-attr": ["'unsafe-inline'"],
    // Photos, drawn signatures and rendered PDF pages are shown from blob: and data: URLs.
    "img-src": ["'self'", "data:", "blob:"],
    "media-src": ["'self'", "blob:"],
    "font-src": ["'self'", "data:"],
    // 'self' takes in ws: and wss: on our own host: the video visits' signalling WebSocket.
    "connect-src": ["'self'", ...(agora ? AGORA_CONNECT_SOURCES : [])],
    // The PDF viewer's worker and the service worker are our own files.
    "worker-src": ["'self'", "blob:"],
    // A PDF is printed from a hidden frame holding its blob: URL (src/widgets/print/print-blob.ts).
    "frame-src": ["'self'", "blob:"],
    // No manifest-src: default-src 'self' covers the manifest, and WebKit, which does not know
    // the directive, logged it as unrecognised on every page.
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** Camera and microphone for the portal itself; the rest of the powerful features off. */
export const PERMISSIONS_POLICY = [
  "camera=(self)",
  "microphone=(self)",
  "display-capture=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "midi=()",
  "accelerometer=()",
  "gyroscope=()",
  "magnetometer=()",
].join(", ");

/** /control answers that hold neither a token nor a person's data. */
const CACHEABLE_API_PATHS = new Set(["/control/openapi.json"]);

const isHtmlAnswer = (reply: FastifyReply) =>
  String(reply.getHeader("content-type") ?? "").startsWith("text/html");
const pathOf = (url: string) => url.split("?")[0] ?? url;
const isApiPath = (path: string) => path === "/control" || path.startsWith("/control/");

export function isTlsRequest(request: FastifyRequest, options: SecurityHeaderOptions) {
  return options.behindTlsProxy === true || request.protocol === "https";
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions = {}) {
  const policies = new Map<string, string>();
  /** The policy for the index.html being served now (one per set of hashes, made once). */
  const currentPolicy = (htmlDocument: boolean) => {
    const scriptHashes = options.scriptHashes?.(htmlDocument) ?? [];
    const key = scriptHashes.join(" ");
    let policy = policies.get(key);
    if (policy === undefined) {
      policy = contentSecurityPolicy({ agora: options.agora, scriptHashes });
      // Rebuilds without a restart are few; an old build's policy is not kept for ever.
      if (policies.size > 8) policies.clear();
      policies.set(key, policy);
    }
    return policy;
  };
  app.addHook("onSend", async (request, reply) => {
    const policy = currentPolicy(isHtmlAnswer(reply));
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    reply.header("x-frame-options", "DENY");
    reply.header("content-security-policy", policy);
    reply.header("permissions-policy", PERMISSIONS_POLICY);
    reply.header("cross-origin-opener-policy", "same-origin");
    if (isTlsRequest(request, options)) reply.header("strict-transport-security", HSTS);
    const path = pathOf(request.url);
    if (isApiPath(path)) {
      if (CACHEABLE_API_PATHS.has(path)) {
        if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-cache");
      } else if (!reply.hasHeader("cache-control")) {
        reply.header("cache-control", "no-store");
      }
    }
  });
}

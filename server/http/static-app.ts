/**
 * Serves the built app on the API's origin: hashed assets cached for a year, the shell, the
 * service worker and the manifest always revalidated, and index.html for every other page path
 * (the single-page fallback). API paths never fall back.
 */
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.ts";

const ONE_YEAR_S = 365 * 24 * 60 * 60;
const isApiPath = (url: string) => url.startsWith("/control/") || url === "/control" || url === "/healthz";

export async function serveApp(app: FastifyInstance, staticDir: string) {
  const root = path.resolve(staticDir);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    // The build writes .br and .gz copies of its assets (scripts/precompress.ts): sent as they are.
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      const relative = path.relative(root, filePath);
      res.setHeader(
        "cache-control",
        relative.startsWith(`assets${path.sep}`) ? `public, max-age=${ONE_YEAR_S}, immutable` : "no-cache",
      );
      // A file may go out as its .br or .gz copy: a cache must keep the encodings apart.
      res.setHeader("vary", "accept-encoding");
    },
  });
  // Files are looked up per request, so a rebuild is served without a restart.
  app.get("/*", (request, reply) => {
    const url = request.url.split("?")[0] ?? "/";
    if (isApiPath(url)) throw new HttpError(404, "Page or resource not found.", "not_found");
    const relative = decodeURIComponent(url).replace(/^\/+/, "");
    if (relative && path.extname(relative)) {
      return reply.sendFile(relative, root);
    }
    return reply.sendFile("index.html", root);
  });
}

/**
 * Writes a gzip (level 9) and a brotli (quality 11) copy beside each hashed JS and CSS file of the
 * build, which the server sends as they are (@fastify/static's preCompressed, server/http/static-app.ts)
 * to a browser that accepts them. Compressing at request time cost the server a few milliseconds
 * per file on every first visit, on the same two cores as everything else, and at a lower level;
 * a file without a copy (the service worker, index.html) is still compressed at request time.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Smaller files gain nothing worth a second copy. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|svg)$/;

export async function precompressDir(dir: string) {
  const names = (await readdir(dir)).filter((name) => COMPRESSIBLE.test(name));
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const source = await readFile(file);
      if (source.length < MIN_BYTES) return;
      const [gzipped, brotli] = await Promise.all([
        gzipAsync(source, { level: 9 }),
        brotliAsync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
      ]);
      await Promise.all([writeFile(`${file}.gz`, gzipped), writeFile(`${file}.br`, brotli)]);
    }),
  );
}

/** The build step: compresses dist/assets once the bundle is written. */
export function precompressAssets(): Plugin {
  let outDir = "dist";
  return {
    name: "clinro:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    async writeBundle() {
      await precompressDir(outDir);
    },
  };
}

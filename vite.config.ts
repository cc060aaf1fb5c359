import path from "node:path";
import { lingui } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { build as esbuild } from "esbuild";
import { defineConfig, type Plugin, type Rollup } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { bundleBudget } from "./scripts/bundle-budget.ts";
import { dayjsLocalesOnAppDayjs } from "./scripts/dayjs-locale-plugin.ts";
import { EARLY_ROUTE_PAGES } from "./src/app/early-route-pages.ts";
import { precompressAssets } from "./scripts/precompress.ts";

const API_ORIGIN = "http://localhost:8080";

/** index.html's early start (src/app/early-definition-start.ts says what it does). */
const EARLY_DEFINITION_SOURCE = "src/app/early-definition-start.ts";
const EARLY_DEFINITION_TAG = `<script src="/${EARLY_DEFINITION_SOURCE}"></script>`;
/** Stands for the pages' file lists in the script until the bundle is known. */
const ROUTE_FILES_PLACEHOLDER = "__CLINRO_ROUTE_FILES__";

/**
 * Every module the app's entry (index.html) imports statically, at any depth, goes into the
 * entry's chunk: those modules all run at the first load anyway. Left to itself Rollup splits
 * them by the lazy pages that share them (52 files), and merging small chunks
 * (experimentalMinChunkSize) then folded lazy pages (the password pages, the search page,
 * TanStack Table) into that first download. With one chunk for the app, each lazy page brings
 * only its own code and what it shares with other lazy pages.
 */
function appChunk(): Rollup.GetManualChunk {
  let appModules: Set<string> | undefined;
  return (id, { getModuleInfo }) => {
    if (!appModules) {
      appModules = new Set();
      const queue = [path.resolve("index.html")];
      while (queue.length > 0) {
        const next = queue.pop()!;
        if (appModules.has(next)) continue;
        appModules.add(next);
        queue.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return appModules.has(id) ? "app" : undefined;
  };
}

/** A chunk's static imports and their CSS, with the chunk itself. */
function staticClosure(bundle: Rollup.OutputBundle, fileName: string, into = new Set<string>()) {
  const chunk = bundle[fileName];
  if (chunk?.type !== "chunk" || into.has(fileName)) return into;
  into.add(fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
  for (const name of chunk.imports) staticClosure(bundle, name, into);
  return into;
}

/**
 * Builds the early start on its own, as a small classic script, and inlines it at the top of
 * index.html: as a module of index.html, Vite would fold it into the app's entry, and it would
 * run only once all of the app's JavaScript had arrived; as a file of its own, the browser asks
 * for it after the app's files (it waited up to 800 ms behind them on HTTP/1.1). Inline, it runs
 * as the HTML is parsed, and the definition call and the route's files are asked for first. The
 * server allows it by its hash (server/http/inline-script-hashes.ts). In development it is
 * served as a module.
 */
function earlyDefinitionScript(): Plugin {
  let building = false;
  let code = "";
  return {
    name: "clinro:early-definition-script",
    configResolved(config) {
      building = config.command === "build";
    },
    async buildStart() {
      if (!building) return;
      const result = await esbuild({
        entryPoints: [EARLY_DEFINITION_SOURCE],
        bundle: true,
        write: false,
        format: "iife",
        minify: true,
        target: "es2022",
        logLevel: "warning",
        define: { __ROUTE_FILES__: ROUTE_FILES_PLACEHOLDER },
      });
      code = result.outputFiles[0]!.text.trim();
      if (!code.includes(ROUTE_FILES_PLACEHOLDER)) {
        throw new Error(`${EARLY_DEFINITION_SOURCE} no longer asks for the pages' files`);
      }
    },
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!html.includes(EARLY_DEFINITION_TAG)) {
          throw new Error(`index.html no longer loads the early start (${EARLY_DEFINITION_TAG})`);
        }
        if (!building || !bundle) {
          return html.replace(
            EARLY_DEFINITION_TAG,
            `<script type="module" src="/${EARLY_DEFINITION_SOURCE}"></script>`,
          );
        }
        const chunks = Object.values(bundle).filter((item) => item.type === "chunk");
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith("index.html"));
        if (!entry) throw new Error("No chunk for the app's entry");
        const appFiles = staticClosure(bundle, entry.fileName);
        // Each page's files but the app's. Its chunk is found by the module it holds: Rollup may
        // have merged other modules into it (experimentalMinChunkSize).
        const routeFiles = EARLY_ROUTE_PAGES.map(({ path, module }) => {
          const page = chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(`/${module}`)));
          if (!page) throw new Error(`No chunk holds ${module} (src/app/early-route-pages.ts)`);
          const files = [...staticClosure(bundle, page.fileName)].filter((file) => !appFiles.has(file));
          return [path, files.map((file) => `/${file}`)] as const;
        }).filter(([, files]) => files.length > 0);
        // Replaced by functions: the paths' $params must not be read as replacement patterns.
        const script = code.replace(ROUTE_FILES_PLACEHOLDER, () => JSON.stringify(routeFiles));
        // "</script" cannot occur in the minified code, but the tag must not end early if it did.
        if (/<\/script/i.test(script)) throw new Error("The early start script contains </script");
        return html.replace(EARLY_DEFINITION_TAG, () => `<script>${script}</script>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react({ babel: { plugins: ["@lingui/babel-plugin-lingui-macro"] } }),
    lingui(),
    earlyDefinitionScript(),
    dayjsLocalesOnAppDayjs(),
    bundleBudget(),
    precompressAssets(),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "sw",
      filename: "sw.ts",
      injectRegister: false,
      registerType: "prompt",
      injectManifest: {
        rollupFormat: "iife",
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest,woff2}"],
      },
      manifest: {
        name: "ClinRO Portal",
        short_name: "ClinRO",
        description: "Clinician portal for clinical research sites",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "any",
        background_color: "#f4f7f9",
        theme_color: "#0b4f6c",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    target: "es2022",
    sourcemap: true,
    // One chunk for the app's first load (appChunk); lazy pages are split by what they share.
    // Before, small chunks were merged (experimentalMinChunkSize 50 kB) to cut the instrument
    // route's 57 files to 10, but the merge also moved lazy pages into the first download: the
    // app was 188.9 KiB gzip in 9 files, now 173.2 in 2; the instrument route 203.9 in 10, now
    // 190.3 in 7 (scripts/bundle-budget.ts holds the figures).
    rollupOptions: { output: { manualChunks: appChunk() } },
  },
  // The app's version: persisted query caches of another version are discarded.
  define: {
    __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? "dev"),
    // In the build, the early start gets the lists in earlyDefinitionScript; in development none.
    __ROUTE_FILES__: "[]",
  },
  server: { proxy: { "/control": API_ORIGIN, "/healthz": API_ORIGIN } },
});

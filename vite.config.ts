import { createHash } from "node:crypto";
import { lingui } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { build as esbuild } from "esbuild";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { bundleBudget } from "./scripts/bundle-budget.ts";

const API_ORIGIN = "http://localhost:8080";

/** index.html's early definition download (src/api/early-definition.ts says why). */
const EARLY_DEFINITION_SOURCE = "src/api/early-definition-start.ts";
const EARLY_DEFINITION_TAG = `<script async src="/${EARLY_DEFINITION_SOURCE}"></script>`;

/**
 * Builds the early definition script on its own, as a small classic script: had it stayed a
 * module script of index.html, Vite would fold it into the app's entry, and it would run only
 * once all of the app's JavaScript had arrived, which is what it is there to beat. In the build
 * it gets a hashed name under assets/ (so the worker precaches it); in development it is served
 * as a module.
 */
function earlyDefinitionScript(): Plugin {
  let building = false;
  let fileName = "";
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
      });
      code = result.outputFiles[0]!.text;
      const hash = createHash("sha256").update(code).digest("base64url").slice(0, 8);
      fileName = `assets/early-definition-${hash}.js`;
    },
    transformIndexHtml: {
      order: "post",
      handler(html) {
        if (!html.includes(EARLY_DEFINITION_TAG)) {
          throw new Error(`index.html no longer loads the early definition script (${EARLY_DEFINITION_TAG})`);
        }
        const tag = building
          ? `<script async src="/${fileName}"></script>`
          : `<script type="module" src="/${EARLY_DEFINITION_SOURCE}"></script>`;
        return html.replace(EARLY_DEFINITION_TAG, tag);
      },
    },
    generateBundle() {
      if (building) this.emitFile({ type: "asset", fileName, source: code });
    },
  };
}

export default defineConfig({
  plugins: [
    react({ babel: { plugins: ["@lingui/babel-plugin-lingui-macro"] } }),
    lingui(),
    earlyDefinitionScript(),
    bundleBudget(),
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
  build: { target: "es2022", sourcemap: true },
  // The app's version: persisted query caches of another version are discarded.
  define: { __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? "dev") },
  server: { proxy: { "/control": API_ORIGIN, "/healthz": API_ORIGIN } },
});

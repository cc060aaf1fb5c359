/**
 * The gallery's Vite config: the app's React and Lingui plugins only (the app's own config adds
 * the service worker, the early definition script and the bundle budget, none of which the
 * gallery has).
 */
import { lingui } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react({ babel: { plugins: ["@lingui/babel-plugin-lingui-macro"] } }), lingui()],
  define: { __APP_VERSION__: JSON.stringify("gallery") },
  build: { target: "es2022" },
});

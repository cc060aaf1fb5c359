import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { describeOnEachDatabase, expectNotFoundJson } from "../support/api-harness.ts";

const INDEX_HTML = "<!doctype html><html><head><title>ClinRO test shell</title></head><body></body></html>";
const ASSET_JS = "console.log('hashed asset');";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

// The built app the server serves: a shell, one hashed asset and a file at the top level, and
// next to it a file that must never be served.
const workDir = mkdtempSync(path.join(tmpdir(), "clinro-static-"));
const staticDir = path.join(workDir, "dist");
mkdirSync(path.join(staticDir, "assets"), { recursive: true });
writeFileSync(path.join(workDir, "secret.txt"), "NOT FOR THE WEB");
writeFileSync(path.join(staticDir, "index.html"), INDEX_HTML);
writeFileSync(path.join(staticDir, "assets", "index-4f3a2b1c.js"), ASSET_JS);
// A bigger asset with the build's compressed copies beside it (scripts/precompress.ts).
const BIG_ASSET_JS = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `row ${index}`))};`;
writeFileSync(path.join(staticDir, "assets", "route-9e8d7c6b.js"), BIG_ASSET_JS);
writeFileSync(path.join(staticDir, "assets", "route-9e8d7c6b.js.br"), brotliCompressSync(BIG_ASSET_JS));
writeFileSync(path.join(staticDir, "assets", "route-9e8d7c6b.js.gz"), gzipSync(BIG_ASSET_JS));
writeFileSync(path.join(staticDir, "manifest.webmanifest"), JSON.stringify({ name: "ClinRO" }));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describeOnEachDatabase(
  "health check, unknown paths and the built app served next to the API",
  (api) => {
    it("answers GET /healthz with 200 and the database up", async () => {
      const response = await api.request("GET", "/healthz");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ database: "up" });
    });

    it("answers 404 JSON, never the app shell, to unknown /control paths, with or without a token", async () => {
      expectNotFoundJson(await api.request("GET", "/control/nope"));
      expectNotFoundJson(await api.request("GET", "/control"));
      expectNotFoundJson(await api.request("GET", "/control/studies/101/sites/1011/unknown"));
      const token = await api.signIn("staff1@demo.test");
      expectNotFoundJson(await api.request("GET", "/control/clinro/nope", { token }));
      expectNotFoundJson(await api.request("POST", "/control/nope", { token, body: {} }));
    });

    it("answers 404 JSON to a known path with a method it does not take", async () => {
      expectNotFoundJson(await api.request("GET", "/control/clinro/login"));
    });

    it("sends the safety headers on API answers", async () => {
      const response = await api.request("GET", "/healthz");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["x-frame-options"]).toBe("DENY");
    });

    it.each([
      "/",
      "/studies",
      "/studies/101/sites/1011/search",
      "/login?redirect=%2Fstudies",
      "/profile/change-password",
    ])("answers the app shell index.html with cache-control no-cache to GET %s", async (url) => {
      const response = await api.request("GET", url);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX_HTML);
      expect(response.headers["cache-control"]).toBe("no-cache");
    });

    it("serves hashed assets with a long immutable cache-control", async () => {
      const response = await api.request("GET", "/assets/index-4f3a2b1c.js");
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(ASSET_JS);
      expect(response.headers["content-type"]).toMatch(/javascript/);
      const cacheControl = String(response.headers["cache-control"]);
      expect(cacheControl).toContain("immutable");
      expect(cacheControl).toContain(`max-age=${ONE_YEAR_S}`);
    });

    it("sends an asset's precompressed copy to a browser that takes its encoding, else the file", async () => {
      const url = "/assets/route-9e8d7c6b.js";
      const brotli = await api.request("GET", url, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(brotli.statusCode).toBe(200);
      expect(brotli.headers["content-encoding"]).toBe("br");
      expect(brotli.headers["content-type"]).toMatch(/javascript/);
      expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG_ASSET_JS);

      const gzipped = await api.request("GET", url, { headers: { "accept-encoding": "gzip" } });
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzipped.rawPayload).toString()).toBe(BIG_ASSET_JS);

      const plain = await api.request("GET", url, { headers: { "accept-encoding": "identity" } });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(BIG_ASSET_JS);
    });

    it("serves other top-level files with cache-control no-cache", async () => {
      const response = await api.request("GET", "/manifest.webmanifest");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ name: "ClinRO" });
      expect(response.headers["cache-control"]).toBe("no-cache");
    });

    it("answers 404, not the app shell, to a missing file", async () => {
      const response = await api.request("GET", "/assets/missing-0000.js");
      expectNotFoundJson(response);
    });

    it.each(["/..%2fsecret.txt", "/assets/..%2f..%2fsecret.txt", "/%2e%2e/secret.txt", "/../secret.txt"])(
      "never serves a file outside the built app (%s)",
      async (url) => {
        const response = await api.request("GET", url);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.body).not.toContain("NOT FOR THE WEB");
      },
    );

    it("keeps answering the API behind the app: 401 without a token, 200 with one", async () => {
      expect((await api.request("GET", "/control/clinro/users/me")).statusCode).toBe(401);
      const token = await api.signIn("coordinator@demo.test");
      expect((await api.request("GET", "/control/studies/101", { token })).statusCode).toBe(200);
    });
  },
  { staticDir },
);

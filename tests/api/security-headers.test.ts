import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { consents, instruments } from "../../server/db/schema.ts";
import { contentSecurityPolicy } from "../../server/http/security-headers.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

// A built app of two files: the shell and one hashed asset.
const workDir = mkdtempSync(path.join(tmpdir(), "clinro-headers-"));
const staticDir = path.join(workDir, "dist");
mkdirSync(path.join(staticDir, "assets"), { recursive: true });
// The shell's one inline script (the build's early start) is the CSP specification's own example,
// whose hash it gives: 'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='.
const INLINE_SCRIPT_HASH = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='";
writeFileSync(
  path.join(staticDir, "index.html"),
  '<!doctype html><title>shell</title><script>alert(\'Hello, world.\');</script><script type="module" src="/assets/index-0a1b2c3d.js"></script>',
);
writeFileSync(path.join(staticDir, "assets", "index-0a1b2c3d.js"), "console.log('asset');");
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The policy's directives by name. */
function directives(response: LightMyRequestResponse) {
  const header = String(response.headers["content-security-policy"] ?? "");
  return new Map(
    header
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectBrowserProtections(response: LightMyRequestResponse) {
  const policy = directives(response);
  expect(policy.get("default-src")).toEqual(["'self'"]);
  // No eval, no inline script but the shell's own, by its hash: scripts are the app's files.
  expect(policy.get("script-src")).toEqual(["'self'", INLINE_SCRIPT_HASH]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("connect-src")).toEqual(["'self'"]);
  expect(policy.get("worker-src")).toEqual(["'self'", "blob:"]);
  const permissions = String(response.headers["permissions-policy"]);
  expect(permissions).toContain("camera=(self)");
  expect(permissions).toContain("microphone=(self)");
  expect(permissions).toContain("geolocation=()");
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers["x-frame-options"]).toBe("DENY");
  // Plain HTTP, not behind a TLS proxy: no HSTS (a browser would ignore it, a test would lie).
  expect(response.headers["strict-transport-security"]).toBeUndefined();
}

describeOnEachDatabase(
  "security headers on every kind of answer",
  (api) => {
    it("the app shell: the policy, and revalidated (no-cache), not no-store", async () => {
      const response = await api.request("GET", "/studies/101/sites/1011/search?q=Smith");
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expectBrowserProtections(response);
      expect(response.headers["cache-control"]).toBe("no-cache");
    });

    it("a rebuilt shell is served with its own script's hash, and every answer after it carries it", async () => {
      const shell = path.join(staticDir, "index.html");
      const before = readFileSync(shell, "utf8");
      const rebuiltScript = "alert('rebuilt');";
      const rebuiltHash = `'sha256-${createHash("sha256").update(rebuiltScript).digest("base64")}'`;
      try {
        writeFileSync(shell, `<!doctype html><title>shell</title><script>${rebuiltScript}</script>`);
        const later = new Date(Date.now() + 5_000);
        utimesSync(shell, later, later);
        const page = await api.request("GET", "/studies/101/sites/1011/search");
        expect(page.statusCode).toBe(200);
        expect(directives(page).get("script-src")).toEqual(["'self'", rebuiltHash]);
        const answer = await api.request("GET", "/control/openapi.json");
        expect(directives(answer).get("script-src")).toEqual(["'self'", rebuiltHash]);
      } finally {
        writeFileSync(shell, before);
        const latest = new Date(Date.now() + 10_000);
        utimesSync(shell, latest, latest);
        // The shell's next answer reads the restored file back: the other tests' hash again.
        const page = await api.request("GET", "/studies/101/sites/1011/search");
        expect(directives(page).get("script-src")).toEqual(["'self'", INLINE_SCRIPT_HASH]);
      }
    });

    it("a hashed static asset: the policy, and cached for a year", async () => {
      const response = await api.request("GET", "/assets/index-0a1b2c3d.js");
      expect(response.statusCode).toBe(200);
      expectBrowserProtections(response);
      expect(response.headers["cache-control"]).toContain("immutable");
    });

    it("a /control answer with a person's data: no-store", async () => {
      const token = await api.signIn("staff1@demo.test");
      const response = await api.request("GET", "/control/clinro/users/me", { token });
      expect(response.statusCode).toBe(200);
      expectBrowserProtections(response);
      expect(response.headers["cache-control"]).toBe("no-store");
    });

    it("the sign-in answer, which carries a token: no-store", async () => {
      const response = await api.login("staff1@demo.test");
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
    });

    it("errors (400, 401, 404 under /control): the policy and no-store", async () => {
      const token = await api.signIn("staff1@demo.test");
      const responses = [
        await api.request("GET", "/control/studies/101/sites/1011/clinro_search", { token }),
        await api.request("GET", "/control/clinro/users/me"),
        await api.request("GET", "/control/nope", { token }),
      ];
      expect(responses.map((response) => response.statusCode)).toEqual([400, 401, 404]);
      for (const response of responses) {
        expectBrowserProtections(response);
        expect(response.headers["cache-control"]).toBe("no-store");
      }
    });

    it("a 404 page path outside /control: the policy", async () => {
      const response = await api.request("GET", "/assets/missing-0000.js");
      expect(response.statusCode).toBe(404);
      expectBrowserProtections(response);
    });

    it("a file download (a consent PDF): the policy and no-store", async () => {
      const token = await api.signIn("coordinator@demo.test");
      const [consent] = await api.db.select({ id: consents.id }).from(consents).limit(1);
      const response = await api.request(
        "GET",
        `/control/v2/consent/pdf?consent_id=${consent!.id}&version=1&platform=clinro`,
        { token },
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/pdf");
      expectBrowserProtections(response);
      expect(response.headers["cache-control"]).toBe("no-store");
    });

    it("keeps a route's own choice: a definition stays no-cache (the worker keeps it offline)", async () => {
      const token = await api.signIn("coordinator@demo.test");
      const [row] = await api.db
        .select({ id: instruments.id })
        .from(instruments)
        .where(and(eq(instruments.studyId, 101), eq(instruments.slug, "ham-d-17")));
      const response = await api.request(
        "GET",
        `/control/admin/studies/101/instruments/${row!.id}/ham-d-17`,
        { token },
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-cache");
      expectBrowserProtections(response);
    });

    it("the API description carries nobody's data: no-cache", async () => {
      const response = await api.request("GET", "/control/openapi.json");
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-cache");
    });
  },
  { staticDir },
);

describeOnEachDatabase(
  "Strict-Transport-Security behind a TLS proxy",
  (api) => {
    it("is sent on every answer, the shell and the API alike", async () => {
      for (const url of ["/", "/healthz", "/control/clinro/users/me"]) {
        const response = await api.request("GET", url);
        expect(response.headers["strict-transport-security"]).toBe("max-age=31536000");
      }
    });
  },
  { staticDir, behindTlsProxy: true },
);

describeOnEachDatabase(
  "Strict-Transport-Security for a request that came over TLS (a trusted proxy says https)",
  (api) => {
    it("is sent when the request was https, and not when it was http", async () => {
      const https = await api.request("GET", "/healthz", { headers: { "x-forwarded-proto": "https" } });
      expect(https.headers["strict-transport-security"]).toBe("max-age=31536000");
      const http = await api.request("GET", "/healthz", { headers: { "x-forwarded-proto": "http" } });
      expect(http.headers["strict-transport-security"]).toBeUndefined();
    });
  },
  { appOptions: { trustProxy: true } },
);

describe("the policy with Agora configured", () => {
  it("lets the page connect to Agora's servers, and to nothing else new", () => {
    const policy = contentSecurityPolicy({ agora: true });
    const connect = policy.split("; ").find((part) => part.startsWith("connect-src "))!;
    expect(connect).toContain("wss://*.agora.io");
    expect(connect).toContain("https://*.sd-rtn.com");
    expect(contentSecurityPolicy({ agora: false })).not.toContain("agora");
    expect(policy).toContain("script-src 'self';");
  });
});

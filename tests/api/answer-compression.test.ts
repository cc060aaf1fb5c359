/**
 * API answers travel compressed in the encoding the client offers (server/app.ts): brotli to a
 * browser that offers it (every tablet browser does over HTTPS), else gzip, else as they are.
 * Both of the plugin's paths are covered: an answer up to 64 KiB is compressed in one call, a
 * larger one streams. Each compressed body must read back as the plain answer.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const BROWSER_OVER_HTTPS = "gzip, deflate, br";
const SYNC_LIMIT = 64 * 1024;

describeOnEachDatabase("compressed answers", (api) => {
  /** The answer to one GET in each encoding, with the plain one to compare against. */
  const eachEncoding = async (url: string, token?: string) => {
    const get = (acceptEncoding?: string) =>
      api.request("GET", url, {
        ...(token === undefined ? {} : { token }),
        headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      });
    const [plain, brotli, gzipped, identity] = await Promise.all([
      get(),
      get(BROWSER_OVER_HTTPS),
      get("gzip"),
      get("br;q=0, gzip;q=0, identity"),
    ]);
    for (const answer of [plain, brotli, gzipped, identity]) expect(answer.statusCode, answer.body).toBe(200);
    return { plain, brotli, gzipped, identity };
  };

  const expectEveryEncoding = (answers: Awaited<ReturnType<typeof eachEncoding>>) => {
    const { plain, brotli, gzipped, identity } = answers;
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(brotli.rawPayload).toString("utf8")).toBe(plain.body);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString("utf8")).toBe(plain.body);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  };

  it("sends a list of a few KB as brotli to a browser that offers it, else gzip, else plain", async () => {
    const token = await api.signIn("staff1@demo.test");
    const answers = await eachEncoding(
      "/control/studies/101/sites/1011/participants?sort=last_name&order=asc&limit=100",
      token,
    );
    // The one-call path: over the plugin's 1 KiB threshold, under its synchronous limit.
    expect(answers.plain.rawPayload.length).toBeGreaterThan(1024);
    expect(answers.plain.rawPayload.length).toBeLessThanOrEqual(SYNC_LIMIT);
    expectEveryEncoding(answers);
  });

  it("streams a larger answer in the same encodings", async () => {
    const answers = await eachEncoding("/control/openapi.json");
    expect(answers.plain.rawPayload.length).toBeGreaterThan(SYNC_LIMIT);
    expectEveryEncoding(answers);
  });
});

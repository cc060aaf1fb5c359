/**
 * The journeys of journeys.ts in WebKit and in Firefox, each against a portal server
 * of its own (the built app, the embedded database, the demo): Playwright drives Chromium in
 * tests/e2e, but cannot drive Debian's WebKitGTK or Firefox ESR, so these use WebDriver.
 * On a machine without an engine (a fresh one, not CI), its suite says so and is skipped.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPortalServer, type PortalServer } from "../e2e/support/server-process.ts";
import type { EnginePage } from "./engine-page.ts";
import { by } from "./engine-page.ts";
import { firefoxMissing, openFirefox } from "./firefox-page.ts";
import {
  consentWithDrawnSignatures,
  ensureSignedIn,
  instrumentStoredOnce,
  mainRoutes,
  queuedThroughOutage,
  seriousViolations,
  signIn,
  storageWorks,
  tapSecondRow,
} from "./journeys.ts";
import { signInApi, type PortalApi } from "./portal-api.ts";
import { openWebKit, webkitMissing } from "./webkit-page.ts";

type Engine = {
  name: "webkit" | "firefox";
  missing: () => string | undefined;
  open: () => Promise<EnginePage>;
  port: number;
  /** GAD-118 participants whose CGI-S no other test opens: stored once, then queued through an outage. */
  participants: [number, number];
  /** Which of the genetic consent's participants awaiting the participant this engine signs. */
  consentPick: number;
};

const ENGINES: Engine[] = [
  {
    name: "webkit",
    missing: webkitMissing,
    open: () => openWebKit(91, 4480),
    port: 4470,
    participants: [166, 167],
    consentPick: 1,
  },
  {
    name: "firefox",
    missing: firefoxMissing,
    open: () => openFirefox(),
    port: 4471,
    participants: [168, 169],
    consentPick: 2,
  },
];

for (const engine of ENGINES) {
  const missing = engine.missing();
  if (missing) console.warn(`The ${engine.name} journeys were SKIPPED: ${missing}.`);

  describe.skipIf(missing !== undefined)(`the clinician's journeys in ${engine.name}`, () => {
    let server: PortalServer;
    let page: EnginePage;
    let api: PortalApi;

    beforeAll(async () => {
      server = await createPortalServer(engine.port);
      await server.start();
      page = await engine.open();
      api = await signInApi(server.url);
    }, 120_000);

    afterAll(async () => {
      await page?.close();
      await server?.dispose();
    });

    // Every journey after the first starts signed in, whatever the one before it left.
    let first = true;
    beforeEach(async () => {
      if (first) {
        first = false;
        return;
      }
      await ensureSignedIn(page, server.url);
    }, 60_000);

    it("signs in, with the service worker in control and IndexedDB storing bytes", async () => {
      await signIn(page, server.url);
      expect(await storageWorks(page)).toEqual({ worker: true, bytes: 8 });
    });

    it("a tap on the second row of a list opens that row", async () => {
      const href = await tapSecondRow(page, server.url);
      expect(href).toMatch(/^\/studies\/\d+\/sites\/\d+\//);
    });

    it("stores a submitted instrument exactly once", async () => {
      expect(await instrumentStoredOnce(page, server.url, api, engine.participants[0])).toBe(1);
    });

    it("queues a submission through a server outage, reloads the shell with the server down, and sends it once", async () => {
      const outcome = await queuedThroughOutage(
        page,
        server.url,
        server,
        engine.participants[1],
        async () => (api = await signInApi(server.url)),
      );
      expect(outcome).toEqual({ queuedOffline: 1, stored: 1, left: "empty" });
    });

    it("completes a consent with a drawn participant and clinician signature", async () => {
      const held = await consentWithDrawnSignatures(page, server.url, api, engine.consentPick);
      expect(held.status).toBe("complete");
      expect(held.signatures.map((signature) => [signature.role, signature.signature_type])).toEqual([
        ["participant", "draw"],
        ["clinro", "draw"],
      ]);
    });

    it("axe finds no serious or critical violation on the main routes", async () => {
      const found: string[] = [];
      for (const route of mainRoutes(server.url)) {
        await page.goto(route.path);
        await page.waitFor(route.ready, 20_000);
        found.push(...(await seriousViolations(page)).map((violation) => `${route.path}: ${violation}`));
      }
      await page.evaluate(`async () => { localStorage.clear(); }`);
      await page.goto(`${server.url}/login`);
      await page.waitFor(by.button("Log in"), 20_000);
      found.push(...(await seriousViolations(page)).map((violation) => `/login: ${violation}`));
      expect(found).toEqual([]);
    });
  });
}

/**
 * The service worker:
 * - precaches the app shell so that the portal opens with no network, and answers every page
 *   path with index.html;
 * - caches survey definitions as they are fetched (network first), so an instrument opened once
 *   online opens and can be completed offline;
 * - drains the outbox on Background Sync, so queued writes leave even after the tab is closed.
 * Other API calls (/control/*) always go to the network. A new version waits until the user
 * chooses to reload (see src/app/pwa-registration.ts).
 */
/// <reference lib="webworker" />
// First: zod must not compile with eval, which the worker's CSP forbids.
import "../core/contracts/zod-jitless.ts";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import { BACKGROUND_SYNC_TAG, drainUnderLock } from "../src/outbox/drain-under-lock.ts";
import { isSurveyDefinitionUrl, SURVEY_DEFINITIONS_CACHE } from "../src/outbox/survey-definition-urls.ts";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

type SyncEvent = ExtendableEvent & { tag: string };

/** Definitions change only when a study deploys a new version: keep a month of them. */
const DEFINITION_MAX_AGE_S = 30 * 24 * 60 * 60;
const DEFINITION_MAX_ENTRIES = 300;
/** On a slow clinic network, fall back to the cached definition after this long. */
const DEFINITION_NETWORK_TIMEOUT_S = 5;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first visit is served by the worker as soon as it is installed, not from the next load
// on: pages that load on demand (the instrument route, the PDF viewer) then come from the
// precache if the network drops during that first session. An update still waits for the
// user (skipWaiting only on their choice).
clientsClaim();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    denylist: [/^\/control\//, /^\/healthz/],
  }),
);

registerRoute(
  ({ url, request }) => request.method === "GET" && isSurveyDefinitionUrl(url),
  new NetworkFirst({
    cacheName: SURVEY_DEFINITIONS_CACHE,
    networkTimeoutSeconds: DEFINITION_NETWORK_TIMEOUT_S,
    // The address names the delivery being completed (?instance_id=), the definition does not:
    // without a network, any delivery of an instrument opened once is answered from its cache.
    matchOptions: { ignoreSearch: true },
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: DEFINITION_MAX_ENTRIES, maxAgeSeconds: DEFINITION_MAX_AGE_S }),
    ],
  }),
);

self.addEventListener("sync", (event) => {
  const syncEvent = event as SyncEvent;
  if (syncEvent.tag !== BACKGROUND_SYNC_TAG) return;
  syncEvent.waitUntil(
    // The browser fires sync when the network is back: the waits a dead network caused are over.
    drainUnderLock({ ignoreBackoff: true }).then((report) => {
      // A rejected sync is tried again later by the browser, with its own backoff.
      if (report.offline || report.retrying.length > 0) throw new Error("Outbox not drained yet");
    }),
  );
});

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

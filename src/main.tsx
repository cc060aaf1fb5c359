// First: no schema may be made before zod is told not to compile with eval (CSP).
import "../core/contracts/zod-jitless.ts";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { ApiError } from "./api/request.ts";
import { exposeOutboxSupportHandle } from "./app/outbox-support-handle.ts";
import { registerServiceWorker } from "./app/pwa-registration.ts";
import { persistQueries } from "./app/query-persistence.ts";
import { mirrorSessionTokens } from "./app/session-token-mirror.ts";
import { createAppRouter } from "./app/router.tsx";
import { onSignOut } from "./auth/logout.ts";
import { watchOutboxForRefusedSession } from "./auth/refused-session.ts";
import { getStoredUser } from "./auth/session-store.ts";
import { activateLocale, i18n, preferredLocale } from "./i18n/i18n.ts";
import { startOutboxFlusher } from "./outbox/flusher.ts";
import { PERSISTED_QUERY_MAX_AGE_MS } from "./app/query-persistence.ts";
import "./app/styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Every query needs a session: after a sign-out, mounted screens must not refetch.
      enabled: () => getStoredUser() !== null,
      staleTime: 30_000,
      // Kept as long as persisted queries may be restored (see query-persistence.ts).
      gcTime: PERSISTED_QUERY_MAX_AGE_MS,
      // A 4xx will not change on retry; network trouble might.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
    },
  },
});
onSignOut(() => queryClient.clear());
const persistence = persistQueries(queryClient, __APP_VERSION__);
const router = createAppRouter(queryClient, persistence.restored);

/**
 * How long the first render waits for the first route's data and code. Rendered once they are
 * in, the first screen is one render React can slice (below); rendered before, the route's
 * arrival re-renders everything in one long task. On slow Wi-Fi the app's frame shows after this
 * wait all the same.
 */
const FIRST_ROUTE_WAIT_MS = 500;

/**
 * Not a top-level await: a locale's chunks (dayjs's Spanish) import from the app's chunk, and
 * would wait for it to finish evaluating while it waited for them. A locale that cannot load
 * (the device offline before the worker cached it) leaves the app in English, not blank.
 */
async function start() {
  registerServiceWorker();
  mirrorSessionTokens();
  startOutboxFlusher();
  watchOutboxForRefusedSession();
  exposeOutboxSupportHandle();
  // Still loading when the app mounts, the route is not loaded twice: the router's Transitioner
  // leaves a load under way to finish.
  const firstRouteLoad = router.load().catch(() => undefined);
  await Promise.all([
    activateLocale(preferredLocale()).catch(() => activateLocale("en")),
    Promise.race([firstRouteLoad, new Promise((resolve) => setTimeout(resolve, FIRST_ROUTE_WAIT_MS))]),
  ]);

  const root = createRoot(document.getElementById("root")!);
  // A transition: React renders the first screen in slices, yielding between them, instead of
  // one long task after the bundle's evaluation (a tablet's taps wait on a long task; Lighthouse
  // counts it as blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nProvider>
      </StrictMode>,
    ),
  );
}

void start();

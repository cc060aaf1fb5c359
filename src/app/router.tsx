/**
 * The routes (code-based). Routes stay thin: a guard, then a feature component.
 */
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, createRoute, createRouter, redirect } from "@tanstack/react-router";
import {
  FORCED_CHANGE_PATH,
  redirectSignedInAwayFromLogin,
  requirePermanentPassword,
  requireSignedIn,
  safeRedirectTarget,
} from "../auth/guards.ts";
import { LoginPage } from "../features/login/login-page.tsx";
import { OutboxReviewPage } from "../features/outbox-review/outbox-review-page.tsx";
import { ForcedChangePasswordPage } from "../features/password/forced-change-password-page.tsx";
import { StudiesPage } from "../features/studies/studies-page.tsx";
import { NotFoundPage } from "../features/system/not-found-page.tsx";
import { UnauthorizedPage } from "../features/system/unauthorized-page.tsx";
import { outboxQuery } from "../outbox/use-outbox.ts";
import { RootLayout } from "./root-layout.tsx";

export type RouterContext = { queryClient: QueryClient };

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/studies" });
  },
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: safeRedirectTarget(search.redirect),
  }),
  beforeLoad: ({ search }) => redirectSignedInAwayFromLogin(search.redirect),
  component: function LoginRoute() {
    const { redirect: target } = loginRoute.useSearch();
    return <LoginPage redirectTarget={target} />;
  },
});

/** Everything below needs a signed-in user with a permanent password. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  beforeLoad: ({ location }) => {
    requirePermanentPassword(location);
  },
});

const studiesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies",
  component: StudiesPage,
});

/** The queue review page: what this device still has to send. */
const outboxRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/outbox",
  loader: ({ context }) => context.queryClient.ensureQueryData(outboxQuery()),
  component: OutboxReviewPage,
});

const forcedChangeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: FORCED_CHANGE_PATH,
  beforeLoad: ({ location }) => {
    const user = requireSignedIn(location);
    if (!user.is_temporary_password) throw redirect({ to: "/" });
  },
  component: ForcedChangePasswordPage,
});

const unauthorizedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/unauthorized",
  component: UnauthorizedPage,
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  signedInRoute.addChildren([studiesRoute, outboxRoute]),
  forcedChangeRoute,
  unauthorizedRoute,
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

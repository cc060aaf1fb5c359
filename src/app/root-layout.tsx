import { Trans } from "@lingui/react/macro";
import { Outlet, useRouter, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import { getStoredUser, subscribeToStoredUser } from "../auth/session-store.ts";
import { SessionInactivity } from "../features/session/session-inactivity.tsx";
import { useStoredUser } from "../auth/use-stored-user.ts";
import { ClockSkewNotice } from "./clock-skew-notice.tsx";
import { requestPersistentStorage } from "../outbox/persistent-storage.ts";
import { useOutboxChanges, usePendingCount } from "../outbox-ui/use-outbox.ts";
import { useRefreshAfterDelivery } from "./use-refresh-after-delivery.ts";
import { GlobalLoader } from "../widgets/loading/global-loader.tsx";
import { Toaster } from "../widgets/toast/toaster.tsx";
import { NavBar } from "./nav-bar.tsx";
import { UpdatePrompt } from "./update-prompt.tsx";
import { VisitRoomHost } from "./visit-room/visit-room-host.tsx";

/** Pages that show no navigation bar (spec 01 section 2). */
const PATHS_WITHOUT_NAV_BAR = [
  /^\/login/,
  /change-password/,
  /^\/forgot-password/,
  /^\/users\/(activate|reset)/,
  /\/consents\/[^/]+\/participants\//,
  // The participant's visit page: the participant has no account here.
  /^\/join\//,
];

export function RootLayout() {
  const router = useRouter();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const showNavBar = !PATHS_WITHOUT_NAV_BAR.some((pattern) => pattern.test(pathname));
  const user = useStoredUser();
  const pendingCount = usePendingCount(user?.id);

  // Every outbox change, in this tab, another tab or the service worker, refreshes its screens.
  useOutboxChanges();
  // A delivered submission or consent changes the lists it belongs to: they are read again.
  useRefreshAfterDelivery();

  // Once there is something to keep, ask the browser not to evict it (at most once per page load).
  useEffect(() => {
    if (pendingCount > 0) void requestPersistentStorage();
  }, [pendingCount]);

  // Re-run the route guards when a session ends or changes hands (here or in another tab). Not
  // when one starts: the sign-in sequence navigates by itself once the me call has answered.
  useEffect(() => {
    let lastToken = getStoredUser()?.token;
    return subscribeToStoredUser(() => {
      const token = getStoredUser()?.token;
      const ended = lastToken !== undefined && token !== lastToken;
      lastToken = token;
      if (ended) void router.invalidate();
    });
  }, [router]);

  // last_active, the idle modal and the inactivity logout: see SessionInactivity.

  // Move focus to each new page's heading, so screen readers announce where the user is. The
  // first page usually resolves before the app mounts (main.tsx loads it first): it gets its
  // focus here, on mount.
  useEffect(() => {
    const focusHeading = () =>
      requestAnimationFrame(() => document.querySelector<HTMLElement>("main h1")?.focus());
    if (router.state.resolvedLocation && router.state.status === "idle") focusHeading();
    return router.subscribe("onResolved", ({ pathChanged }) => {
      if (pathChanged) focusHeading();
    });
  }, [router]);

  return (
    <>
      <a className="skip-link" href="#main">
        <Trans id="skip_to_content">Skip to content</Trans>
      </a>
      <GlobalLoader />
      {showNavBar ? <NavBar /> : null}
      {showNavBar ? <ClockSkewNotice /> : null}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <VisitRoomHost />
      <Toaster />
      <UpdatePrompt />
      <SessionInactivity />
    </>
  );
}

/**
 * The pages of one study site (/studies/{studyId}/sites/{siteId}/...) for a user who does not
 * work at that site: the access-denied panel instead of the page (loaded on demand, as few ever
 * see it). The session stays: lacking a site is not an ended session.
 */
import { useRouterState } from "@tanstack/react-router";
import { lazy, Suspense, type ReactNode } from "react";
import { useStoredUser } from "../auth/use-stored-user.ts";
import { lacksSite } from "./site-access.ts";
import { parseStudyPath } from "./study-nav.ts";

const SiteAccessDenied = lazy(() =>
  import("./site-access-denied.tsx").then((module) => ({ default: module.SiteAccessDenied })),
);

export function SiteAccessGuard({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const user = useStoredUser();
  const path = parseStudyPath(pathname);
  if (!path || !user || !lacksSite(user.permissions, path.studyId, path.siteId)) return children;
  return (
    <Suspense fallback={null}>
      <SiteAccessDenied />
    </Suspense>
  );
}

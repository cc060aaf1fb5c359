/**
 * The pages loaded on demand (router.tsx's lazyPage) whose files index.html's early start asks
 * for as soon as the URL is theirs, beside the app's own files: without it, a page opened by its
 * URL (a reload, a link, the home-screen app resuming) waits for the app's code to run and the
 * router to match before its own chunk is even requested, one more round trip on clinic Wi-Fi.
 *
 * Each path is the router's own (a test checks every one is a route), and each module the file
 * its lazyPage imports. vite.config.ts turns the modules into the built files; the early start
 * (src/app/early-definition-start.ts) bundles this file, so it imports nothing.
 *
 * Only signed-in pages: the early start asks for them only with a live session.
 */
export const EARLY_ROUTE_PAGES: readonly { path: string; module: string }[] = [
  {
    path: "/studies/$studyId/sites/$siteId/search",
    module: "src/features/participant-search/participant-search-page.tsx",
  },
  {
    path: "/studies/$studyId/sites/$siteId/participants/$participantId",
    module: "src/features/participant-home/participant-home-page.tsx",
  },
  {
    path: "/studies/$studyId/sites/$siteId/participants/$participantId/instruments/$instrumentId/$instrument",
    module: "src/features/instrument/instrument-route.tsx",
  },
  { path: "/studies/$studyId/sites/$siteId/visits", module: "src/features/visits/visits-route.tsx" },
  {
    path: "/studies/$studyId/sites/$siteId/visits/$roomToken",
    module: "src/features/visits/visits-route.tsx",
  },
  { path: "/studies/$studyId/sites/$siteId/consents", module: "src/features/consents/consent-routes.tsx" },
  {
    path: "/studies/$studyId/sites/$siteId/consents/$consentId",
    module: "src/features/consents/consent-routes.tsx",
  },
  {
    path: "/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId",
    module: "src/features/consent-completion/consent-completion-route.tsx",
  },
  { path: "/inbox", module: "src/features/inbox/inbox-page.tsx" },
  { path: "/inbox/new", module: "src/features/inbox/write-announcement-page.tsx" },
  { path: "/users", module: "src/features/users/users-page.tsx" },
  { path: "/users/$userId/edit", module: "src/features/users/edit-user-page.tsx" },
  { path: "/users/profile", module: "src/features/profile/profile-page.tsx" },
];

/** A route path as a pattern over location.pathname: each $param is one segment. */
export function routePathPattern(path: string) {
  const source = path
    .split("/")
    .map((segment) => (segment.startsWith("$") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/** The files of the page at pathname, from the built [path, files] list; none for other pages. */
export function earlyRouteFiles(
  pathname: string,
  routeFiles: readonly (readonly [string, readonly string[]])[],
): readonly string[] {
  return routeFiles.find(([path]) => routePathPattern(path).test(pathname))?.[1] ?? [];
}

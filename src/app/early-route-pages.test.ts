import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { EARLY_ROUTE_PAGES, earlyRouteFiles, routePathPattern } from "./early-route-pages.ts";
import { createAppRouter } from "./router.tsx";
import routerSource from "./router.tsx?raw";

/** The module the route declared with this path loads on demand, read from router.tsx. */
function lazyModuleOf(path: string) {
  const declared = routerSource.indexOf(`path: "${path}",`);
  if (declared < 0) return undefined;
  const end = routerSource.indexOf("createRoute(", declared);
  const block = routerSource.slice(declared, end < 0 ? undefined : end);
  const specifier = /import\("\.\.\/([^"]+)"\)/.exec(block)?.[1];
  return specifier ? `src/${specifier}` : undefined;
}

describe("the pages whose files the early start asks for", () => {
  it("are routes of the router, each with the module its page loads on demand", () => {
    const router = createAppRouter(new QueryClient());
    for (const { path, module } of EARLY_ROUTE_PAGES) {
      expect(router.routesByPath, path).toHaveProperty([path]);
      expect(lazyModuleOf(path), path).toBe(module);
    }
  });

  it("are matched by their own URLs, one segment per parameter", () => {
    const participant = routePathPattern("/studies/$studyId/sites/$siteId/participants/$participantId");
    expect(participant.test("/studies/101/sites/1011/participants/7")).toBe(true);
    expect(participant.test("/studies/101/sites/1011/participants/7/")).toBe(true);
    expect(participant.test("/studies/101/sites/1011/participants/7/instruments/3/phq9")).toBe(false);
    expect(participant.test("/studies/101/sites/1011/participants")).toBe(false);
    expect(participant.test("/x/studies/101/sites/1011/participants/7")).toBe(false);
    expect(routePathPattern("/inbox").test("/inbox/new")).toBe(false);
  });

  it("come from the built list: the first page the URL is, and none for any other URL", () => {
    const built = [
      ["/studies/$studyId/sites/$siteId/participants/$participantId", ["/assets/participant-home-1.js"]],
      ["/inbox", ["/assets/inbox-2.js", "/assets/inbox-3.css"]],
    ] as const;
    expect(earlyRouteFiles("/studies/1/sites/2/participants/3", built)).toEqual([
      "/assets/participant-home-1.js",
    ]);
    expect(earlyRouteFiles("/inbox", built)).toEqual(["/assets/inbox-2.js", "/assets/inbox-3.css"]);
    expect(earlyRouteFiles("/studies", built)).toEqual([]);
    expect(earlyRouteFiles("/login", built)).toEqual([]);
  });
});

// @vitest-environment jsdom (the stored session (localStorage) and the document's preload links)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setStoredUser } from "../auth/session-store.ts";
import { preloadRouteFiles, startEarlyDefinition, takeEarlyDefinition } from "./early-definition.ts";
import { ApiError, NetworkError, request } from "./request.ts";
import { definitionUrl, instrumentRouteAddress } from "./survey-definition-url.ts";

const TOKEN = "early-token";
const ROUTE = "/studies/101/sites/1011/participants/1/instruments/7/ham-d";

beforeEach(() => {
  localStorage.clear();
  setStoredUser({
    token: TOKEN,
    id: 3,
    username: "coordinator@demo.test",
    exp: Math.floor(Date.now() / 1000) + 3600,
    is_temporary_password: false,
    last_active: Date.now(),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("instrumentRouteAddress: the instrument route, known from the URL alone", () => {
  it("reads the ids, the decoded slug and the query string of an instrument route", () => {
    expect(
      instrumentRouteAddress(
        "/studies/101/sites/1011/participants/1/instruments/7/ham%20d",
        "?instance_id=5",
      ),
    ).toEqual({ studyId: 101, instrumentId: 7, instrument: "ham d", searchStr: "?instance_id=5" });
  });

  it.each([
    ["another page", "/studies/101/sites/1011/participants/1"],
    ["a zero id", "/studies/0/sites/1011/participants/1/instruments/7/ham-d"],
    ["an id with a leading zero", "/studies/101/sites/1011/participants/01/instruments/7/ham-d"],
    ["an id past the largest", "/studies/101/sites/1011/participants/1/instruments/99999999999/ham-d"],
    ["a slug that does not decode", "/studies/101/sites/1011/participants/1/instruments/7/%E0%A4%A"],
    ["a longer path", `${ROUTE}/more`],
  ])("gives nothing for %s", (_, pathname) => {
    expect(instrumentRouteAddress(pathname, "")).toBeUndefined();
  });

  it("builds the same URL as the definition call, query string included", () => {
    const address = instrumentRouteAddress(ROUTE, "?instance_id=5&lang=es")!;
    expect(definitionUrl(address)).toBe(
      "/control/admin/studies/101/instruments/7/ham-d?instance_id=5&lang=es",
    );
  });
});

describe("the early definition download and its hand-over", () => {
  it("sends the call with the token and the JSON headers, once", () => {
    const fetchMock = vi.fn(async () => new Response("{}"));
    vi.stubGlobal("fetch", fetchMock);
    const slot = {};
    startEarlyDefinition("/control/admin/studies/101/instruments/7/ham-d", TOKEN, slot);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/control/admin/studies/101/instruments/7/ham-d");
    expect(new Headers(init.headers).get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(new Headers(init.headers).get("accept")).toBe("application/json");
  });

  it("hands its response over once, and only for the same URL and token", () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("{}")),
    );
    const url = "/control/admin/studies/101/instruments/7/ham-d";
    const slot = {};
    startEarlyDefinition(url, TOKEN, slot);
    expect(takeEarlyDefinition(url, TOKEN, slot)).toBeInstanceOf(Promise);
    expect(takeEarlyDefinition(url, TOKEN, slot)).toBeUndefined();

    startEarlyDefinition(url, TOKEN, slot);
    expect(takeEarlyDefinition(`${url}?instance_id=5`, TOKEN, slot)).toBeUndefined();
    // A mismatch empties the slot: the next instrument opened fetches for itself.
    expect(takeEarlyDefinition(url, TOKEN, slot)).toBeUndefined();

    startEarlyDefinition(url, TOKEN, slot);
    expect(takeEarlyDefinition(url, "another-token", slot)).toBeUndefined();
  });

  it("is read by the request module like its own fetch: no second call, JSON answered", async () => {
    const fetchMock = vi.fn(async () => Response.json({ id: "ham-d" }));
    vi.stubGlobal("fetch", fetchMock);
    const slot = {};
    startEarlyDefinition("/control/admin/studies/101/instruments/7/ham-d", TOKEN, slot);
    const sent = takeEarlyDefinition("/control/admin/studies/101/instruments/7/ham-d", TOKEN, slot);
    const body = await request({
      path: "/control/admin/studies/101/instruments/7/ham-d",
      responseType: "auto",
      sent,
    });
    expect(body).toEqual({ id: "ham-d" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("keeps the request module's errors: a 403 handled by the page, a refused connection", async () => {
    vi.stubGlobal("fetch", vi.fn());
    const forbidden = request({
      path: "/x",
      handle403Locally: true,
      sent: Promise.resolve(Response.json({ message: "no" }, { status: 403 })),
    });
    await expect(forbidden).rejects.toBeInstanceOf(ApiError);
    await expect(forbidden).rejects.toMatchObject({ status: 403 });
    const refused = request({ path: "/x", sent: Promise.reject(new TypeError("Failed to fetch")) });
    await expect(refused).rejects.toBeInstanceOf(NetworkError);
  });
});

describe("preloadRouteFiles: the instrument route's files asked for beside the app's", () => {
  afterEach(() => {
    for (const link of document.head.querySelectorAll("link")) link.remove();
  });

  it("adds a module preload for each script and a style preload for each stylesheet, as Vite's own", () => {
    preloadRouteFiles([
      "/assets/instrument-route-1.js",
      "/assets/draft-2.js",
      "/assets/instrument-route-3.css",
    ]);
    const links = [...document.head.querySelectorAll("link")];
    expect(
      links.map((link) => [
        link.rel,
        link.getAttribute("href"),
        link.getAttribute("as"),
        link.getAttribute("crossorigin"),
      ]),
    ).toEqual([
      ["modulepreload", "/assets/instrument-route-1.js", null, ""],
      ["modulepreload", "/assets/draft-2.js", null, ""],
      ["preload", "/assets/instrument-route-3.css", "style", ""],
    ]);
  });

  it("does not ask twice for a file already preloaded", () => {
    preloadRouteFiles(["/assets/instrument-route-1.js"]);
    preloadRouteFiles(["/assets/instrument-route-1.js", "/assets/draft-2.js"]);
    expect([...document.head.querySelectorAll("link")].map((link) => link.getAttribute("href"))).toEqual([
      "/assets/instrument-route-1.js",
      "/assets/draft-2.js",
    ]);
  });
});

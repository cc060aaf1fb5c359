// @vitest-environment jsdom (the stored session in localStorage)
import type { MessageDescriptor } from "@lingui/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as SessionRevocation from "../outbox/session-revocation.ts";
import * as z from "zod/mini";
import { getStoredUser, setStoredUser, type StoredUser } from "../auth/session-store.ts";
import { getLoadingState, isLoading } from "../widgets/loading/loading-store.ts";
import { dismissToast, getToasts } from "../widgets/toast/toast-store.ts";
import { forgetSignOutReason, signOutReason } from "../auth/sign-out-reason.ts";
import { ApiError, NetworkError, SessionEndedError, request } from "./request.ts";

const LOGOUT_PATH = "/control/clinro/logout";

/** The sign-out's revocation goes through the outbox (src/auth/logout.ts): recorded here. */
const queuedRevocations = vi.hoisted(() => vi.fn(async (_session: { token: string }) => {}));
vi.mock("../outbox/session-revocation.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof SessionRevocation>()),
  queueRevocation: queuedRevocations,
}));
beforeEach(() => queuedRevocations.mockClear());

const TOKEN = "token-of-the-signed-in-user";
const FAR_FUTURE_SECONDS = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;

function signIn(overrides: Partial<StoredUser> = {}) {
  setStoredUser({
    token: TOKEN,
    id: 7,
    username: "clinician@example.org",
    exp: FAR_FUTURE_SECONDS,
    is_temporary_password: false,
    last_active: Date.now(),
    ...overrides,
  });
}

function json(body: unknown, init: ResponseInit = {}) {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
}

type Answer = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Stubs fetch: the logout (token revocation) call always answers 204; everything else asks `answer`. */
function stubFetch(answer: Answer = () => json({})) {
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (url === LOGOUT_PATH) return new Response(null, { status: 204 });
    return answer(url, init);
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

type FetchMock = ReturnType<typeof stubFetch>;

function callsTo(mock: FetchMock, path: string) {
  return mock.mock.calls.filter(([input]) => String(input).split("?")[0] === path);
}

function onlyCall(mock: FetchMock, path: string) {
  const calls = callsTo(mock, path);
  expect(calls).toHaveLength(1);
  const [input, init = {}] = calls[0]!;
  return { url: String(input), init, headers: new Headers(init.headers) };
}

function failWith(status: number, statusText: string, body?: unknown) {
  return () =>
    body === undefined ? new Response(null, { status, statusText }) : json(body, { status, statusText });
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the request to fail");
}

const descriptor = (id: string): MessageDescriptor => ({ id, message: `text of ${id}` });

beforeEach(() => {
  localStorage.clear();
  forgetSignOutReason();
  for (const toast of getToasts()) dismissToast(toast.id);
  signIn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  for (const toast of getToasts()) dismissToast(toast.id);
});

describe("shared request behaviour: what is sent", () => {
  it("sends an Authorization header with the stored token", async () => {
    const fetchMock = stubFetch();
    await request({ path: "/control/users" });
    const { headers, init } = onlyCall(fetchMock, "/control/users");
    expect(headers.get("Authorization")).toBe(`Bearer ${TOKEN}`);
    expect(init.method).toBe("GET");
  });

  it("sends a plain body as JSON with the default JSON content type", async () => {
    const fetchMock = stubFetch();
    await request({ path: "/control/change_password", method: "POST", body: { old_password: "a", n: 1 } });
    const { headers, init } = onlyCall(fetchMock, "/control/change_password");
    expect(init.method).toBe("POST");
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(JSON.parse(String(init.body))).toEqual({ old_password: "a", n: 1 });
  });

  it("keeps a content type the caller gives instead of the JSON default", async () => {
    const fetchMock = stubFetch();
    await request({
      path: "/control/things",
      method: "POST",
      body: { a: 1 },
      headers: { "Content-Type": "application/merge-patch+json" },
    });
    expect(onlyCall(fetchMock, "/control/things").headers.get("Content-Type")).toBe(
      "application/merge-patch+json",
    );
  });

  it("sends a multipart (FormData) body as is, without a content type", async () => {
    const fetchMock = stubFetch();
    const form = new FormData();
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    await request({ path: "/control/uploads", method: "POST", body: form });
    const { headers, init } = onlyCall(fetchMock, "/control/uploads");
    expect(init.body).toBe(form);
    expect(headers.has("Content-Type")).toBe(false);
    expect(headers.get("Authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("sends no body and no content type when there is no body", async () => {
    const fetchMock = stubFetch();
    await request({ path: "/control/users" });
    const { headers, init } = onlyCall(fetchMock, "/control/users");
    expect(init.body).toBeUndefined();
    expect(headers.has("Content-Type")).toBe(false);
  });

  it("adds the caller's extra headers next to the Authorization header", async () => {
    const fetchMock = stubFetch();
    await request({ path: "/control/users", headers: { "hpi-utc-offset": "120", "X-Extra": "yes" } });
    const { headers } = onlyCall(fetchMock, "/control/users");
    expect(headers.get("hpi-utc-offset")).toBe("120");
    expect(headers.get("X-Extra")).toBe("yes");
    expect(headers.get("Authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("URL-encodes query values and leaves out undefined ones", async () => {
    const fetchMock = stubFetch();
    const searchValue = "Jane Doe & co/é?x=1#frag";
    await request({
      path: "/control/studies/1/sites/2/clinro_search",
      query: { search_value: searchValue, page: 2, archived: false, missing: undefined },
    });
    const { url } = onlyCall(fetchMock, "/control/studies/1/sites/2/clinro_search");
    const [path, search = ""] = url.split("?");
    expect(path).toBe("/control/studies/1/sites/2/clinro_search");
    expect(search).not.toContain(" ");
    expect(search).not.toContain("#");
    expect(search).not.toContain("é");
    const params = new URLSearchParams(search);
    expect([...params.keys()]).toEqual(["search_value", "page", "archived"]);
    expect(params.get("search_value")).toBe(searchValue);
    expect(params.get("page")).toBe("2");
    expect(params.get("archived")).toBe("false");
  });

  it("sends no Authorization header and needs no signed-in user for a no-auth call", async () => {
    localStorage.clear();
    const fetchMock = stubFetch(() => json({ ok: true }));
    await expect(
      request({
        path: "/control/users/forgot_password",
        method: "POST",
        auth: false,
        body: { username: "x" },
      }),
    ).resolves.toEqual({ ok: true });
    const { headers } = onlyCall(fetchMock, "/control/users/forgot_password");
    expect(headers.has("Authorization")).toBe(false);
    expect(callsTo(fetchMock, LOGOUT_PATH)).toHaveLength(0);
    expect(queuedRevocations).not.toHaveBeenCalled();
    expect(getToasts()).toHaveLength(0);
  });
});

describe("shared request behaviour: how answers are read", () => {
  it("parses a JSON answer", async () => {
    stubFetch(() => json({ users: [{ id: 1, username: "a" }] }));
    await expect(request({ path: "/control/users" })).resolves.toEqual({
      users: [{ id: 1, username: "a" }],
    });
  });

  it("parses a JSON answer whose content type carries a charset", async () => {
    stubFetch(() => json({ a: 1 }, { headers: { "Content-Type": "application/json; charset=utf-8" } }));
    await expect(request({ path: "/control/users" })).resolves.toEqual({ a: 1 });
  });

  it("validates a JSON answer with the given schema", async () => {
    stubFetch(() => json({ token: "abc", extra: "dropped" }));
    const schema = z.object({ token: z.string() });
    await expect(request({ path: "/control/change_password", schema })).resolves.toEqual({ token: "abc" });
  });

  it("rejects a JSON answer that does not match the given schema", async () => {
    stubFetch(() => json({ token: 42 }));
    const schema = z.object({ token: z.string() });
    await expect(request({ path: "/control/change_password", schema })).rejects.toBeInstanceOf(
      z.core.$ZodError,
    );
  });

  it.each([
    ["application/zip", "PK\u0003\u0004zipdata"],
    ["application/pdf", "%PDF-1.7 data"],
  ])("returns a %s answer as a Blob", async (contentType, content) => {
    stubFetch(() => new Response(content, { status: 200, headers: { "Content-Type": contentType } }));
    const answer = await request({ path: "/control/export" });
    // Response.blob() makes a Blob of Node's realm, not jsdom's global Blob: check the brand instead.
    expect(Object.prototype.toString.call(answer)).toBe("[object Blob]");
    const blob = answer as Blob;
    expect(blob.type).toBe(contentType);
    expect(await blob.text()).toBe(content);
  });

  it("returns undefined for a 204 answer", async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    await expect(request({ path: "/control/things", method: "DELETE" })).resolves.toBeUndefined();
  });

  it("shows the success message as a success toast for 2 seconds", async () => {
    stubFetch(() => json({}));
    await request({ path: "/control/clinro/users/me", method: "PATCH", successMessage: descriptor("saved") });
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "success",
        durationMs: 2000,
        text: expect.objectContaining({ id: "saved" }),
      }),
    ]);
  });

  it("shows no toast for a successful call without a success message", async () => {
    stubFetch(() => json({}));
    await request({ path: "/control/users" });
    expect(getToasts()).toHaveLength(0);
  });
});

describe("error catalogue: 401 and 403", () => {
  it("logs out and says authorization is required for 5 seconds on 401", async () => {
    stubFetch(failWith(401, "Unauthorized", { message: "token revoked" }));
    const error = await rejection(request({ path: "/control/users" }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401 });
    expect(getStoredUser()).toBeNull();
    expect(queuedRevocations).toHaveBeenCalledTimes(1);
    expect(queuedRevocations).toHaveBeenCalledWith(expect.objectContaining({ token: TOKEN }));
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 5000,
        text: expect.objectContaining({ id: "error_401" }),
      }),
    ]);
  });

  it("keeps the session on a 401 of a call sent without the token (a public call)", async () => {
    const fetchMock = stubFetch(failWith(401, "Unauthorized", { code: "token_invalid" }));
    const error = await rejection(request({ path: "/control/visits/join/abc", auth: false }));
    expect(error).toBeInstanceOf(ApiError);
    expect(getStoredUser()).toMatchObject({ token: TOKEN });
    expect(callsTo(fetchMock, LOGOUT_PATH)).toHaveLength(0);
    expect(queuedRevocations).not.toHaveBeenCalled();
    expect(signOutReason()).toBeUndefined();
  });

  it.each([
    ["token_revoked", "error_401_token_revoked"],
    ["user_deactivated", "error_login_403"],
    ["token_invalid", "error_401_token_invalid"],
  ])(
    "ends the session at a refused token (%s), keeping the reason for the sign-in page",
    async (code, reasonId) => {
      stubFetch(failWith(401, "Unauthorized", { message: "refused", code }));
      // A page that shows what it holds on its own refusals (a participant's 403) still ends here.
      const error = await rejection(
        request({ path: "/control/studies/1/sites/2/participants/3", handle403Locally: true }),
      );
      expect(error).toMatchObject({ status: 401 });
      expect(getStoredUser()).toBeNull();
      expect(signOutReason()).toMatchObject({ id: reasonId });
      // Said on the sign-in page, not in a passing toast as well.
      expect(getToasts()).toHaveLength(0);
    },
  );

  it("keeps the user signed in on a 403 (something the user lacks, not an ended session) and says so", async () => {
    const fetchMock = stubFetch(failWith(403, "Forbidden", { message: "no access to this site" }));
    const error = await rejection(request({ path: "/control/studies/1/sites/2/participants" }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403 });
    expect(getStoredUser()).toMatchObject({ token: TOKEN });
    expect(callsTo(fetchMock, LOGOUT_PATH)).toHaveLength(0);
    expect(queuedRevocations).not.toHaveBeenCalled();
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 2000,
        text: expect.objectContaining({ id: "error_403", message: "You don't have access to this." }),
      }),
    ]);
  });

  it("keeps the user signed in and shows no toast on 403 when the caller handles it (access-denied panel)", async () => {
    const fetchMock = stubFetch(failWith(403, "Forbidden", { message: "no access" }));
    const onFail = vi.fn();
    const error = await rejection(
      request({ path: "/control/studies/1/sites/2/participants/3", handle403Locally: true, onFail }),
    );
    expect(error).toMatchObject({ status: 403 });
    expect(getStoredUser()).toMatchObject({ token: TOKEN });
    expect(callsTo(fetchMock, LOGOUT_PATH)).toHaveLength(0);
    expect(queuedRevocations).not.toHaveBeenCalled();
    expect(getToasts()).toHaveLength(0);
    expect(onFail).toHaveBeenCalledWith(error);
  });

  it("still logs out on 401 when only 403 is handled by the caller", async () => {
    stubFetch(failWith(401, "Unauthorized"));
    await rejection(request({ path: "/control/users", handle403Locally: true }));
    expect(getStoredUser()).toBeNull();
  });
});

describe("error catalogue: status texts and message precedence", () => {
  it.each([
    [404, "Not Found", "error_404"],
    [500, "Internal Server Error", "error_500"],
  ])(
    "shows the default text for %i for 2 seconds and keeps the user signed in",
    async (status, statusText, id) => {
      const fetchMock = stubFetch(failWith(status, statusText));
      const error = await rejection(request({ path: "/control/studies/1" }));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, statusText, displayMessage: { id } });
      expect(getToasts()).toEqual([
        expect.objectContaining({ kind: "error", durationMs: 2000, text: expect.objectContaining({ id }) }),
      ]);
      expect(getStoredUser()).toMatchObject({ token: TOKEN });
      expect(callsTo(fetchMock, LOGOUT_PATH)).toHaveLength(0);
      expect(queuedRevocations).not.toHaveBeenCalled();
    },
  );

  it("prefers an explicit failMessage to the default text for the status", async () => {
    stubFetch(failWith(404, "Not Found", { message: "no such study" }));
    const error = await rejection(
      request({ path: "/control/studies/1", failMessage: descriptor("error_fetch_study") }),
    );
    expect(error).toMatchObject({ displayMessage: { id: "error_fetch_study" } });
    expect(getToasts()).toEqual([
      expect.objectContaining({
        durationMs: 2000,
        text: expect.objectContaining({ id: "error_fetch_study" }),
      }),
    ]);
  });

  it("prefers the default text for the status to the server's message field", async () => {
    stubFetch(failWith(500, "Internal Server Error", { message: "database exploded" }));
    await rejection(request({ path: "/control/users" }));
    expect(getToasts()).toEqual([
      expect.objectContaining({ text: expect.objectContaining({ id: "error_500" }) }),
    ]);
  });

  it("shows the server's message field for a status without a default text", async () => {
    stubFetch(failWith(422, "Unprocessable Entity", { message: "phone is not valid" }));
    const error = await rejection(request({ path: "/control/clinro/users/me", method: "PATCH" }));
    expect(error).toMatchObject({ status: 422, displayMessage: "phone is not valid" });
    expect((error as ApiError).body).toEqual({ message: "phone is not valid" });
    expect(getToasts()).toEqual([
      expect.objectContaining({ kind: "error", durationMs: 2000, text: "phone is not valid" }),
    ]);
  });

  it.each([
    ["no body", () => new Response(null, { status: 409, statusText: "Conflict" })],
    ["a non-JSON body", () => new Response("<html>oops</html>", { status: 409, statusText: "Conflict" })],
    ["a JSON body without a message", () => json({ detail: "x" }, { status: 409, statusText: "Conflict" })],
  ])("shows '<status> Error: <status text>.' when there is nothing else (%s)", async (_case, answer) => {
    stubFetch(answer);
    await rejection(request({ path: "/control/things", method: "POST", body: {} }));
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 2000,
        text: expect.objectContaining({
          id: "error_status_generic",
          values: { status: 409, statusText: "Conflict" },
        }),
      }),
    ]);
  });

  it("suppresses the error toast when asked, but still throws ApiError", async () => {
    stubFetch(failWith(404, "Not Found"));
    const error = await rejection(request({ path: "/control/studies/1", suppressErrorToast: true }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, displayMessage: { id: "error_404" } });
    expect(getToasts()).toHaveLength(0);
  });

  it("calls the fail handler with the ApiError", async () => {
    stubFetch(failWith(422, "Unprocessable Entity", { message: "bad input" }));
    const onFail = vi.fn();
    const error = await rejection(request({ path: "/control/things", onFail }));
    expect(onFail).toHaveBeenCalledTimes(1);
    expect(onFail).toHaveBeenCalledWith(error);
    expect(onFail.mock.calls[0]![0]).toBeInstanceOf(ApiError);
    expect(onFail.mock.calls[0]![0]).toMatchObject({ status: 422, displayMessage: "bad input" });
  });

  it("calls the fail handler also when the toast is suppressed", async () => {
    stubFetch(failWith(500, "Internal Server Error"));
    const onFail = vi.fn();
    await rejection(request({ path: "/control/things", onFail, suppressErrorToast: true }));
    expect(onFail).toHaveBeenCalledWith(expect.objectContaining({ status: 500 }));
  });
});

describe("error catalogue: network failure", () => {
  it("throws NetworkError and shows the catchMessage for 2 seconds", async () => {
    const cause = new TypeError("Failed to fetch");
    stubFetch(() => Promise.reject(cause));
    const error = await rejection(
      request({ path: "/control/users", catchMessage: descriptor("network_down") }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toBe(cause);
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 2000,
        text: expect.objectContaining({ id: "network_down" }),
      }),
    ]);
  });

  it("throws NetworkError and shows nothing when no catchMessage is given", async () => {
    stubFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(request({ path: "/control/users" })).rejects.toBeInstanceOf(NetworkError);
    expect(getToasts()).toHaveLength(0);
    expect(getStoredUser()).toMatchObject({ token: TOKEN });
  });
});

describe("error catalogue: token missing or expired before a request", () => {
  it("logs out with the authorization-required text for 5 seconds and sends nothing when no user is stored", async () => {
    localStorage.clear();
    const fetchMock = stubFetch();
    const error = await rejection(request({ path: "/control/users" }));
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(callsTo(fetchMock, "/control/users")).toHaveLength(0);
    expect(getStoredUser()).toBeNull();
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 5000,
        text: expect.objectContaining({ id: "error_401" }),
      }),
    ]);
  });

  it("logs out with the session-expired text for 5 seconds and sends nothing when the token has expired", async () => {
    signIn({ exp: Math.floor(Date.now() / 1000) - 60 });
    const fetchMock = stubFetch();
    const error = await rejection(request({ path: "/control/users", method: "POST", body: { a: 1 } }));
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(callsTo(fetchMock, "/control/users")).toHaveLength(0);
    expect(getStoredUser()).toBeNull();
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 5000,
        text: expect.objectContaining({ id: "error_session_expired" }),
      }),
    ]);
  });

  it("does not raise the loader for a request that was never sent", async () => {
    localStorage.clear();
    stubFetch();
    await rejection(request({ path: "/control/users", loader: true, loaderKey: "users" }));
    expect(isLoading()).toBe(false);
    expect(isLoading("users")).toBe(false);
  });
});

describe("shared request behaviour: loaders", () => {
  it("raises the general loading flag during the request and lowers it after", async () => {
    let loadingDuringRequest: boolean | undefined;
    stubFetch(() => {
      loadingDuringRequest = isLoading();
      return json({});
    });
    expect(isLoading()).toBe(false);
    await request({ path: "/control/users", loader: true });
    expect(loadingDuringRequest).toBe(true);
    expect(isLoading()).toBe(false);
  });

  it("does not raise the general loading flag without loader", async () => {
    let loadingDuringRequest: boolean | undefined;
    stubFetch(() => {
      loadingDuringRequest = isLoading();
      return json({});
    });
    await request({ path: "/control/users" });
    expect(loadingDuringRequest).toBe(false);
  });

  it.each([
    ["an error status", () => new Response(null, { status: 500, statusText: "Internal Server Error" })],
    ["a network failure", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("lowers the general loading flag after %s", async (_case, answer: Answer) => {
    let loadingDuringRequest: boolean | undefined;
    stubFetch((url, init) => {
      loadingDuringRequest = isLoading();
      return answer(url, init);
    });
    await rejection(request({ path: "/control/users", loader: true }));
    expect(loadingDuringRequest).toBe(true);
    expect(isLoading()).toBe(false);
    expect(getLoadingState().general).toBe(0);
  });

  it("raises only the flag of the loaderKey during the request", async () => {
    let during: { key: boolean; other: boolean; general: boolean } | undefined;
    stubFetch(() => {
      during = { key: isLoading("export"), other: isLoading("login"), general: isLoading() };
      return json({});
    });
    await request({ path: "/control/export", loaderKey: "export" });
    expect(during).toEqual({ key: true, other: false, general: false });
    expect(isLoading("export")).toBe(false);
  });

  it.each([
    ["an error status", () => new Response(null, { status: 404, statusText: "Not Found" })],
    ["a network failure", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("lowers the loaderKey flag after %s", async (_case, answer: Answer) => {
    let keyDuringRequest: boolean | undefined;
    stubFetch((url, init) => {
      keyDuringRequest = isLoading("export");
      return answer(url, init);
    });
    await rejection(request({ path: "/control/export", loaderKey: "export" }));
    expect(keyDuringRequest).toBe(true);
    expect(isLoading("export")).toBe(false);
  });
});

// @vitest-environment jsdom (the stored session in localStorage)
import { isRedirect } from "@tanstack/react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as SessionRevocation from "../outbox/session-revocation.ts";
import { dismissToast, getToasts } from "../widgets/toast/toast-store.ts";
import {
  FORCED_CHANGE_PATH,
  redirectSignedInAwayFromLogin,
  requirePermanentPassword,
  requireSignedIn,
  safeRedirectTarget,
} from "./guards.ts";
import { getStoredUser, setStoredUser, type StoredUser } from "./session-store.ts";

/** The sign-out's revocation goes through the outbox (src/auth/logout.ts): recorded here. */
const queuedRevocations = vi.hoisted(() => vi.fn(async (_session: { token: string }) => {}));
vi.mock("../outbox/session-revocation.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof SessionRevocation>()),
  queueRevocation: queuedRevocations,
}));
beforeEach(() => queuedRevocations.mockClear());

const TOKEN = "guard-test-token";
const FAR_FUTURE_SECONDS = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
const PAST_SECONDS = Math.floor(Date.now() / 1000) - 60;

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

/** Runs a guard and returns the redirect's options it threw, or fails when it did not redirect. */
function redirectOf(guard: () => unknown) {
  try {
    guard();
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.options as Record<string, unknown>;
    throw thrown;
  }
  throw new Error("expected the guard to redirect");
}

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  localStorage.clear();
  for (const toast of getToasts()) dismissToast(toast.id);
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  vi.stubGlobal("fetch", fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  for (const toast of getToasts()) dismissToast(toast.id);
});

describe("safeRedirectTarget: only a path on this origin", () => {
  it.each(["/", "/studies", "/studies/1/sites/2/search?x=1#top", "/users/profile"])("keeps %s", (target) => {
    expect(safeRedirectTarget(target)).toBe(target);
  });

  it.each<[string, unknown]>([
    ["an absolute https URL", "https://evil.example/phish"],
    ["an absolute http URL", "http://evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash trick", "/\\evil.example"],
    // Browsers drop tabs and newlines while parsing a URL: these read as //evil.example.
    ["a protocol-relative URL with a tab between the slashes", "/\t/evil.example"],
    ["a protocol-relative URL with a newline between the slashes", "/\n/evil.example"],
    ["a relative path", "studies"],
    ["the empty string", ""],
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["an object", { href: "/studies" }],
    ["an array", ["/studies"]],
  ])("refuses %s", (_case, target) => {
    expect(safeRedirectTarget(target)).toBeUndefined();
  });
});

describe("requireSignedIn: unauthenticated users are sent to login", () => {
  it("redirects to /login with the redirect search value when nobody is signed in", () => {
    const options = redirectOf(() => requireSignedIn({ href: "/studies/1/sites/2/search?q=a" }));
    expect(options).toMatchObject({ to: "/login", search: { redirect: "/studies/1/sites/2/search?q=a" } });
  });

  it("logs out with the session-expired text and redirects to /login when the token has expired", () => {
    signIn({ exp: PAST_SECONDS });
    const options = redirectOf(() => requireSignedIn({ href: "/users" }));
    expect(options).toMatchObject({ to: "/login", search: { redirect: "/users" } });
    expect(getStoredUser()).toBeNull();
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 5000,
        text: expect.objectContaining({ id: "error_session_expired" }),
      }),
    ]);
    expect(queuedRevocations).toHaveBeenCalledWith(expect.objectContaining({ token: TOKEN }));
  });

  it("lets a signed-in user with a valid token through and returns the user", () => {
    signIn();
    expect(requireSignedIn({ href: "/studies" })).toMatchObject({ token: TOKEN, id: 7 });
    expect(getToasts()).toHaveLength(0);
  });
});

describe("requireSignedIn: a session idle longer than the limit ends (spec 01 section 4)", () => {
  it("logs out with the timed-out text when last_active is older than 600 s", () => {
    signIn({ last_active: Date.now() - 601_000 });
    const options = redirectOf(() => requireSignedIn({ href: "/studies" }));
    expect(options).toMatchObject({ to: "/login", search: { redirect: "/studies" } });
    expect(getStoredUser()).toBeNull();
    expect(getToasts()).toEqual([
      expect.objectContaining({
        kind: "error",
        durationMs: 5000,
        text: expect.objectContaining({ id: "session_timed_out" }),
      }),
    ]);
  });

  it("keeps a session idle for less than the limit", () => {
    signIn({ last_active: Date.now() - 500_000 });
    expect(requireSignedIn({ href: "/studies" })).toMatchObject({ token: TOKEN });
  });

  it("honours a shorter test-only timing", () => {
    localStorage.setItem("clinro_session_timeout_override", JSON.stringify({ timeoutS: 5, warningS: 3 }));
    signIn({ last_active: Date.now() - 6_000 });
    redirectOf(() => requireSignedIn({ href: "/studies" }));
    expect(getStoredUser()).toBeNull();
  });

  it("ignores an override that would lengthen the timeout", () => {
    localStorage.setItem(
      "clinro_session_timeout_override",
      JSON.stringify({ timeoutS: 86_400, warningS: 3 }),
    );
    signIn({ last_active: Date.now() - 601_000 });
    redirectOf(() => requireSignedIn({ href: "/studies" }));
    expect(getStoredUser()).toBeNull();
  });

  it("leaves a signed-in user on login when the session went stale", () => {
    signIn({ last_active: Date.now() - 601_000 });
    expect(() => redirectSignedInAwayFromLogin("/studies")).not.toThrow();
    expect(getStoredUser()).toBeNull();
  });
});

describe("requirePermanentPassword: users with a temporary password go to the forced change", () => {
  it("redirects a temporary-password user to /profile/change-password", () => {
    signIn({ is_temporary_password: true });
    expect(FORCED_CHANGE_PATH).toBe("/profile/change-password");
    expect(redirectOf(() => requirePermanentPassword({ href: "/studies" }))).toMatchObject({
      to: "/profile/change-password",
    });
    expect(getStoredUser()).toMatchObject({ token: TOKEN });
  });

  it("lets a user with a permanent password through", () => {
    signIn({ is_temporary_password: false });
    expect(requirePermanentPassword({ href: "/studies" })).toMatchObject({ token: TOKEN });
  });

  it("sends an unauthenticated user to login first", () => {
    expect(redirectOf(() => requirePermanentPassword({ href: "/studies" }))).toMatchObject({
      to: "/login",
      search: { redirect: "/studies" },
    });
  });
});

describe("redirectSignedInAwayFromLogin: signed-in users on login go to the redirect value or '/'", () => {
  it.each<[string | undefined, string]>([
    ["/studies/1/sites/2/search", "/studies/1/sites/2/search"],
    [undefined, "/"],
    ["https://evil.example", "/"],
    ["//evil.example", "/"],
    ["/\t/evil.example", "/"],
  ])("with redirect %s goes to %s", (target, expected) => {
    signIn();
    expect(redirectOf(() => redirectSignedInAwayFromLogin(target))).toMatchObject({ href: expected });
  });

  it("leaves a signed-out user on login", () => {
    expect(() => redirectSignedInAwayFromLogin("/studies")).not.toThrow();
  });

  it("leaves a user whose token has expired on login", () => {
    signIn({ exp: PAST_SECONDS });
    expect(() => redirectSignedInAwayFromLogin("/studies")).not.toThrow();
  });
});

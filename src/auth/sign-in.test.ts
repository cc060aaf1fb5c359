// @vitest-environment jsdom (the stored session in localStorage)
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MeResponse } from "../../core/contracts/user.ts";
import { dismissToast, getToasts } from "../widgets/toast/toast-store.ts";
import { clearHeldPassword, getHeldPassword } from "./held-password.ts";
import { getStoredUser } from "./session-store.ts";
import { localUtcOffsetMinutes, signIn } from "./sign-in.ts";
import { checkVerifier, loadVerifier } from "./signing-verifier.ts";

const LOGIN_PATH = "/control/clinro/login";
const ME_PATH = "/control/clinro/users/me";
const SIGNING_KEY_PATH = "/control/v2/signing-key";
const EXP = Math.floor(Date.now() / 1000) + 3600;

function base64url(value: unknown) {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** An unsigned test JWT: jwt-decode reads the payload without checking the signature. */
function makeJwt(payload: { id: number; username: string; exp: number }) {
  return `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url(payload)}.c2lnbmF0dXJl`;
}

const TOKEN = makeJwt({ id: 7, username: "clinician@example.org", exp: EXP });

const me: MeResponse = {
  id: 7,
  username: "clinician@example.org",
  name: "Dr Jane Doe",
  nickname: "Jane",
  fname: "Jane",
  phone: "",
  isPhoneEnabled: false,
  countryDialCode: "+1",
  role: "enroller",
  scope: ["ca"],
  last_login: null,
  created_by: null,
  has_consented: true,
  is_temporary_password: false,
  userImage: null,
  onboarding: { announcements: false, activities: false },
  permissions: {},
};

function json(body: unknown, status = 200, statusText = "OK") {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { "Content-Type": "application/json" },
  });
}

type Answers = { login?: () => Response | Promise<Response>; me?: () => Response | Promise<Response> };

function stubServer(answers: Answers = {}, isTemporary = false) {
  const mock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const url = String(input);
    if (url === LOGIN_PATH) {
      return answers.login
        ? answers.login()
        : json({
            token: TOKEN,
            id: 7,
            username: "clinician@example.org",
            is_temporary_password: isTemporary,
          });
    }
    if (url === ME_PATH) return answers.me ? answers.me() : json(me);
    return new Response(null, { status: 204 });
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

const credentials = { username: "clinician@example.org", password: "Typed pass 1!" };

beforeEach(() => {
  localStorage.clear();
  clearHeldPassword();
  for (const toast of getToasts()) dismissToast(toast.id);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  clearHeldPassword();
  for (const toast of getToasts()) dismissToast(toast.id);
});

describe("sign-in", () => {
  it("posts the username and password to login without a token, then makes the me call with the new token", async () => {
    const fetchMock = stubServer();
    await expect(signIn(credentials)).resolves.toEqual({ ok: true, temporaryPassword: false });
    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls).toEqual([LOGIN_PATH, ME_PATH, SIGNING_KEY_PATH]);

    const [, loginInit = {}] = fetchMock.mock.calls[0]!;
    const loginHeaders = new Headers(loginInit.headers);
    expect(loginInit.method).toBe("POST");
    expect(JSON.parse(String(loginInit.body))).toEqual(credentials);
    expect(loginHeaders.get("Content-Type")).toBe("application/json");
    expect(loginHeaders.has("Authorization")).toBe(false);

    const [, meInit = {}] = fetchMock.mock.calls[1]!;
    expect(meInit.method ?? "GET").toBe("GET");
    expect(new Headers(meInit.headers).get("Authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("stores the token, the token's payload, the me call's fields and last_active", async () => {
    stubServer();
    const before = Date.now();
    await signIn(credentials);
    expect(getStoredUser()).toMatchObject({
      token: TOKEN,
      id: 7,
      username: "clinician@example.org",
      exp: EXP,
      is_temporary_password: false,
      name: "Dr Jane Doe",
      nickname: "Jane",
      has_consented: true,
      permissions: {},
    });
    expect(getStoredUser()?.last_active).toBeGreaterThanOrEqual(before);
    expect(getStoredUser()?.last_active).toBeLessThanOrEqual(Date.now());
    expect(getHeldPassword()).toBeUndefined();
  });

  it.each([
    [-120, "120"],
    [300, "-300"],
    [-330, "330"],
  ])(
    "sends the local UTC offset in the hpi-utc-offset header (getTimezoneOffset %i gives %s)",
    async (timezoneOffset, header) => {
      vi.spyOn(Date.prototype, "getTimezoneOffset").mockReturnValue(timezoneOffset);
      const fetchMock = stubServer();
      await signIn(credentials);
      const [, loginInit = {}] = fetchMock.mock.calls[0]!;
      expect(new Headers(loginInit.headers).get("hpi-utc-offset")).toBe(header);
    },
  );

  it("reads the offset as -getTimezoneOffset()", () => {
    const date = new Date();
    vi.spyOn(date, "getTimezoneOffset").mockReturnValue(-60);
    expect(localUtcOffsetMinutes(date)).toBe(60);
  });

  it("holds the typed password and reports a temporary password when the login marks it", async () => {
    const fetchMock = stubServer({}, true);
    await expect(signIn(credentials)).resolves.toEqual({ ok: true, temporaryPassword: true });
    expect(getHeldPassword()).toBe("Typed pass 1!");
    expect(getStoredUser()).toMatchObject({ token: TOKEN, is_temporary_password: true });
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual([
      LOGIN_PATH,
      ME_PATH,
      SIGNING_KEY_PATH,
    ]);
  });

  it("keeps a verifier of the typed password for consent signatures, even when the signing key cannot be fetched", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubServer();
    await signIn(credentials);
    const verifier = await loadVerifier(7);
    expect(verifier).toBeDefined();
    expect(await checkVerifier("Typed pass 1!", verifier!)).toBe(true);
    expect(await checkVerifier("Typed pass 2!", verifier!)).toBe(false);
  });

  it.each([
    [400, "Bad Request", "error_login_400"],
    [429, "Too Many Requests", "error_login_429"],
    [500, "Internal Server Error", "error_login_500"],
    [418, "I'm a teapot", "error_login_400"],
  ])("a login answering %i gives %s and stores nothing", async (status, statusText, id) => {
    const fetchMock = stubServer({ login: () => json({ message: "nope" }, status, statusText) });
    const result = await signIn(credentials);
    expect(result).toMatchObject({ ok: false, message: { id } });
    expect(getStoredUser()).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
    expect(getHeldPassword()).toBeUndefined();
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual([LOGIN_PATH]);
    expect(getToasts()).toHaveLength(0);
  });

  it("a network failure at login gives error_login_network and stores nothing", async () => {
    stubServer({ login: () => Promise.reject(new TypeError("Failed to fetch")) });
    const result = await signIn(credentials);
    expect(result).toMatchObject({ ok: false, message: { id: "error_login_network" } });
    expect(getStoredUser()).toBeNull();
  });

  it.each([
    ["an error status", () => json({}, 500, "Internal Server Error"), "error_login_500"],
    ["a network failure", () => Promise.reject(new TypeError("Failed to fetch")), "error_login_network"],
    ["an answer that is not a user", () => json({ id: "not a user" }), "error_login_network"],
  ])("a me call failing with %s leaves nobody signed in", async (_case, meAnswer, id) => {
    stubServer({ me: meAnswer });
    const result = await signIn(credentials);
    expect(result).toMatchObject({ ok: false, message: { id } });
    expect(getStoredUser()).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
  });
});

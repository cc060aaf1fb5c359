// @vitest-environment jsdom (the stored session in localStorage)
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/request.ts";
import { listItems } from "../outbox/outbox-store.ts";
import { getStoredUser, setStoredUser } from "./session-store.ts";
import type { PasswordVerifier } from "./signing-verifier.ts";
import { MAX_UNLOCK_ATTEMPTS, unlockSession, type UnlockDependencies } from "./unlock-session.ts";

const verifier: PasswordVerifier = { algorithm: "PBKDF2-SHA-256", iterations: 1, salt: "", hash: "" };
const user = { id: 7, username: "carmen@demo.test", token: "old.token.value", exp: 1_900_000_000 };

/** A token whose payload names `id`; the signature is not checked on the client. */
function tokenFor(id: number, exp = 2_000_000_000) {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return `${part({ alg: "HS256" })}.${part({ id, username: user.username, exp })}.signature`;
}

function dependencies(overrides: Partial<UnlockDependencies> = {}): UnlockDependencies {
  return {
    loadVerifier: vi.fn(() => Promise.resolve(verifier)),
    checkVerifier: vi.fn((password: string) => Promise.resolve(password === "DemoPass1!")),
    signInAgain: vi.fn(() => Promise.reject(new Error("not expected"))),
    ...overrides,
  };
}

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
  );
  setStoredUser({ ...user, is_temporary_password: false, last_active: 1 });
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe("unlocking the inactivity lock", () => {
  it("allows a few wrong passwords before signing out", () => {
    expect(MAX_UNLOCK_ATTEMPTS).toBe(5);
  });

  it("opens with the right password, checked on this device, and marks the session active", async () => {
    const deps = dependencies();
    expect(await unlockSession(user, "DemoPass1!", deps)).toEqual({ ok: true });
    expect(getStoredUser()?.last_active).toBeGreaterThan(1);
    expect(deps.signInAgain).not.toHaveBeenCalled();
  });

  it("stays locked with a wrong password, and the session stays idle", async () => {
    expect(await unlockSession(user, "wrong", dependencies())).toEqual({ ok: false, reason: "wrong" });
    expect(getStoredUser()?.last_active).toBe(1);
  });

  it("stays locked with an empty password without checking anything", async () => {
    const deps = dependencies();
    expect(await unlockSession(user, "", deps)).toEqual({ ok: false, reason: "wrong" });
    expect(deps.loadVerifier).not.toHaveBeenCalled();
  });

  describe("on a device without a verifier", () => {
    const noVerifier = { loadVerifier: vi.fn(() => Promise.resolve(undefined)) };

    it("asks the server, keeps the fresh token and queues the old one's revocation", async () => {
      const fresh = tokenFor(user.id);
      const deps = dependencies({
        ...noVerifier,
        signInAgain: vi.fn(() => Promise.resolve({ token: fresh })),
      });
      expect(await unlockSession(user, "DemoPass1!", deps)).toEqual({ ok: true });
      expect(deps.signInAgain).toHaveBeenCalledWith(user.username, "DemoPass1!");
      expect(getStoredUser()).toMatchObject({ token: fresh, exp: 2_000_000_000 });
      await vi.waitFor(async () =>
        expect(await listItems()).toEqual([
          expect.objectContaining({
            kind: "revocation",
            request: expect.objectContaining({ path: "/control/clinro/logout" }),
            session: { token: user.token, exp: user.exp },
          }),
        ]),
      );
    });

    it("stays locked when the server says the password is wrong (400)", async () => {
      const deps = dependencies({
        ...noVerifier,
        signInAgain: vi.fn(() => Promise.reject(new ApiError(400, "Bad Request", "", null))),
      });
      expect(await unlockSession(user, "nope", deps)).toEqual({ ok: false, reason: "wrong" });
      expect(getStoredUser()?.token).toBe(user.token);
    });

    it("says the check is unavailable without the network", async () => {
      const deps = dependencies({
        ...noVerifier,
        signInAgain: vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
      });
      expect(await unlockSession(user, "DemoPass1!", deps)).toEqual({ ok: false, reason: "unavailable" });
    });

    it("refuses a token of another user", async () => {
      const deps = dependencies({
        ...noVerifier,
        signInAgain: vi.fn(() => Promise.resolve({ token: tokenFor(99) })),
      });
      expect(await unlockSession(user, "DemoPass1!", deps)).toEqual({ ok: false, reason: "wrong" });
      expect(getStoredUser()?.token).toBe(user.token);
    });
  });
});

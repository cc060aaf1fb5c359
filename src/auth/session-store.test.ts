// @vitest-environment jsdom (localStorage and its storage events)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  USER_STORAGE_KEY,
  clearStoredUser,
  getStoredUser,
  isTokenExpired,
  markActive,
  setStoredUser,
  subscribeToStoredUser,
  updateStoredUser,
  type StoredUser,
} from "./session-store.ts";

const user: StoredUser = {
  token: "stored-token",
  id: 7,
  username: "clinician@example.org",
  exp: 4_102_444_800,
  is_temporary_password: true,
  last_active: 1_700_000_000_000,
};

const stored = () => JSON.parse(localStorage.getItem("user") ?? "null") as unknown;

let unsubscribes: Array<() => void> = [];

function subscribe(listener: () => void) {
  unsubscribes.push(subscribeToStoredUser(listener));
}

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  for (const unsubscribe of unsubscribes) unsubscribe();
  unsubscribes = [];
  localStorage.clear();
});

describe("the stored user", () => {
  it("is kept in localStorage under the key 'user', with last_active", () => {
    expect(USER_STORAGE_KEY).toBe("user");
    setStoredUser(user);
    expect(stored()).toEqual(user);
    expect(stored()).toHaveProperty("last_active", 1_700_000_000_000);
    expect(getStoredUser()).toEqual(user);
  });

  it("reads as signed out when nothing is stored", () => {
    expect(getStoredUser()).toBeNull();
  });

  it("reads what another tab wrote to localStorage", () => {
    setStoredUser(user);
    localStorage.setItem("user", JSON.stringify({ ...user, username: "other-tab" }));
    expect(getStoredUser()).toMatchObject({ username: "other-tab" });
  });

  it.each([
    ["not JSON", "{not json"],
    ["JSON null", "null"],
    ["a JSON string", '"a string"'],
    ["a JSON number", "42"],
    ["an object without a token", JSON.stringify({ id: 1, username: "x" })],
    ["an object whose token is not a string", JSON.stringify({ ...user, token: 123 })],
  ])("reads as signed out when localStorage holds %s", (_case, raw) => {
    localStorage.setItem("user", raw);
    expect(getStoredUser()).toBeNull();
  });

  it("updateStoredUser merges the changes over the stored user", () => {
    setStoredUser(user);
    updateStoredUser({ is_temporary_password: false, has_consented: true });
    expect(getStoredUser()).toEqual({ ...user, is_temporary_password: false, has_consented: true });
    expect(stored()).toEqual({ ...user, is_temporary_password: false, has_consented: true });
  });

  it("updateStoredUser does nothing when nobody is signed in", () => {
    updateStoredUser({ username: "ghost" });
    expect(getStoredUser()).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
  });

  it("markActive sets last_active to the given time", () => {
    setStoredUser(user);
    markActive(1_800_000_000_000);
    expect(getStoredUser()).toEqual({ ...user, last_active: 1_800_000_000_000 });
  });

  it("markActive sets last_active to now by default", () => {
    setStoredUser(user);
    vi.spyOn(Date, "now").mockReturnValue(1_750_000_000_000);
    try {
      markActive();
    } finally {
      vi.restoreAllMocks();
    }
    expect(getStoredUser()?.last_active).toBe(1_750_000_000_000);
  });

  it("clearStoredUser removes it", () => {
    setStoredUser(user);
    clearStoredUser();
    expect(localStorage.getItem("user")).toBeNull();
    expect(getStoredUser()).toBeNull();
  });
});

describe("subscribers", () => {
  it.each<[string, () => void]>([
    ["set", () => setStoredUser(user)],
    ["updated", () => updateStoredUser({ username: "changed" })],
    ["marked active", () => markActive(1_800_000_000_000)],
    ["cleared", () => clearStoredUser()],
  ])("are notified when the user is %s", (_case, change) => {
    setStoredUser(user);
    const listener = vi.fn(() => getStoredUser());
    subscribe(listener);
    change();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("see the new value when notified", () => {
    const seen: Array<string | undefined> = [];
    subscribe(() => seen.push(getStoredUser()?.username));
    setStoredUser(user);
    updateStoredUser({ username: "renamed" });
    clearStoredUser();
    expect(seen).toEqual(["clinician@example.org", "renamed", undefined]);
  });

  it("are notified when another tab changes the user", () => {
    const listener = vi.fn();
    subscribe(listener);
    window.dispatchEvent(new StorageEvent("storage", { key: "user" }));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("are not notified when another tab changes another key", () => {
    const listener = vi.fn();
    subscribe(listener);
    window.dispatchEvent(new StorageEvent("storage", { key: "something_else" }));
    expect(listener).not.toHaveBeenCalled();
  });

  it("are no longer notified after unsubscribing", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToStoredUser(listener);
    unsubscribe();
    setStoredUser(user);
    window.dispatchEvent(new StorageEvent("storage", { key: "user" }));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe("isTokenExpired: exp is in seconds", () => {
  const exp = 1_700_000_000;
  it.each([
    ["long before exp", exp * 1000 - 3_600_000, false],
    ["one millisecond before exp", exp * 1000 - 1, false],
    ["exactly at exp", exp * 1000, true],
    ["after exp", exp * 1000 + 1, true],
  ])("%s the token is expired: %s", (_case, now, expired) => {
    expect(isTokenExpired({ exp }, now)).toBe(expired);
  });

  it("compares with now by default", () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(isTokenExpired({ exp: nowSeconds - 10 })).toBe(true);
    expect(isTokenExpired({ exp: nowSeconds + 3600 })).toBe(false);
  });
});

/**
 * The signed-in user, kept in localStorage under 'user' as the spec describes: the token, the
 * token's payload, the me call's fields, and a last_active stamp. Owns nothing else: no
 * requests, no navigation. Other tabs see changes through the storage event.
 */
import type { MeResponse } from "../../core/contracts/user.ts";

export const USER_STORAGE_KEY = "user";

export type StoredUser = Partial<MeResponse> & {
  token: string;
  id: number;
  username: string;
  /** Seconds since the epoch, from the token. */
  exp: number;
  is_temporary_password: boolean;
  /** Milliseconds since the epoch of the user's last activity. */
  last_active: number;
  /** The server's clock minus the device's, measured at sign-in (device-clock.ts). */
  clock_offset_ms?: number;
};

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: { raw: string | null; user: StoredUser | null } = { raw: null, user: null };

function readRaw() {
  try {
    return localStorage.getItem(USER_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function getStoredUser(): StoredUser | null {
  const raw = readRaw();
  if (raw === cached.raw) return cached.user;
  let user: StoredUser | null = null;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object" && typeof (parsed as StoredUser).token === "string") {
      user = parsed as StoredUser;
    }
  } catch {
    user = null;
  }
  cached = { raw, user };
  return user;
}

function write(user: StoredUser | null) {
  if (user) localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function setStoredUser(user: StoredUser) {
  write(user);
}

/** Merges fields over the stored user; does nothing when nobody is signed in. */
export function updateStoredUser(changes: Partial<StoredUser>) {
  const current = getStoredUser();
  if (current) write({ ...current, ...changes });
}

export function clearStoredUser() {
  write(null);
}

export function markActive(now = Date.now()) {
  updateStoredUser({ last_active: now });
}

export function subscribeToStoredUser(listener: Listener) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === USER_STORAGE_KEY || event.key === null) listener();
  };
  globalThis.addEventListener?.("storage", onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.("storage", onStorage);
  };
}

/** The token's expiry on the device's own clock: its `exp` is on the server's. */
export function tokenExpiresAtOnDevice(user: Pick<StoredUser, "exp" | "clock_offset_ms">) {
  return user.exp * 1000 - (user.clock_offset_ms ?? 0);
}

/** Judged on the server's time: a device clock days ahead does not end a fresh session. */
export function isTokenExpired(user: Pick<StoredUser, "exp" | "clock_offset_ms">, now = Date.now()) {
  return tokenExpiresAtOnDevice(user) <= now;
}

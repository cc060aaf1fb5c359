/**
 * The inactivity lock's password check (spec 01 section 4: "an inactivity lock message asks for
 * a password with a countdown in seconds"). The password is checked against this device's
 * verifier made at sign-in (signing-verifier.ts), so the lock opens without the network too;
 * a device without a verifier asks the server by signing in again, and keeps the fresh token.
 * A few wrong passwords end the session: the lock is not a place to guess passwords.
 */
import { jwtDecode } from "jwt-decode";
import { login } from "../api/auth-api.ts";
import { ApiError } from "../api/request.ts";
import { tokenPayload } from "../../core/contracts/auth.ts";
import { localUtcOffsetMinutes } from "./sign-in.ts";
import { queueRevocation } from "../outbox/session-revocation.ts";
import { markActive, updateStoredUser, type StoredUser } from "./session-store.ts";
import { checkVerifier, loadVerifier, type PasswordVerifier } from "./signing-verifier.ts";

/** Wrong passwords the lock takes before it signs the user out. */
export const MAX_UNLOCK_ATTEMPTS = 5;

export type UnlockResult =
  | { ok: true }
  /** wrong: not the password; unavailable: neither this device nor the server could check it. */
  | { ok: false; reason: "wrong" | "unavailable" };

export type UnlockDependencies = {
  loadVerifier: (userId: number) => Promise<PasswordVerifier | undefined>;
  checkVerifier: (password: string, verifier: PasswordVerifier) => Promise<boolean>;
  /** The server's check: a fresh token, or an error (ApiError 400 for a wrong password). */
  signInAgain: (username: string, password: string) => Promise<{ token: string }>;
};

const defaultDependencies: UnlockDependencies = {
  loadVerifier,
  checkVerifier,
  signInAgain: (username, password) => login({ username, password }, localUtcOffsetMinutes()),
};

/** Checks the password of the locked session; on success the session is active again. */
export async function unlockSession(
  user: Pick<StoredUser, "id" | "username" | "token" | "exp">,
  password: string,
  dependencies: UnlockDependencies = defaultDependencies,
): Promise<UnlockResult> {
  if (password === "") return { ok: false, reason: "wrong" };
  let verifier: PasswordVerifier | undefined;
  try {
    verifier = await dependencies.loadVerifier(user.id);
  } catch {
    verifier = undefined;
  }
  if (verifier) {
    if (!(await dependencies.checkVerifier(password, verifier))) return { ok: false, reason: "wrong" };
    markActive();
    return { ok: true };
  }
  try {
    const { token } = await dependencies.signInAgain(user.username, password);
    const payload = tokenPayload.parse(jwtDecode(token));
    if (payload.id !== user.id) return { ok: false, reason: "wrong" };
    updateStoredUser({ token, exp: payload.exp, last_active: Date.now() });
    void queueRevocation({ userId: user.id, username: user.username, token: user.token, exp: user.exp });
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return { ok: false, reason: "wrong" };
    return { ok: false, reason: "unavailable" };
  }
}

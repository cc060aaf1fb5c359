/**
 * Ending a session: queue the token's revocation in the outbox (sent at once when online, else
 * when the connection is back: session-revocation.ts), clear the stored user and everything
 * cached for them, and say why. Navigation follows from the stored user becoming empty (route
 * guards).
 */
import { queueRevocation } from "../outbox/session-revocation.ts";
import { TOAST_SESSION_MS, showToast, type ToastText } from "../widgets/toast/toast-store.ts";
import { clearHeldPassword } from "./held-password.ts";
import { clearStoredUser, getStoredUser } from "./session-store.ts";

type SignOutHook = () => void;
const signOutHooks = new Set<SignOutHook>();

/** Registers work to do on every sign-out (clearing caches); returns the unregister function. */
export function onSignOut(hook: SignOutHook) {
  signOutHooks.add(hook);
  return () => {
    signOutHooks.delete(hook);
  };
}

export function logout(reason?: ToastText) {
  const user = getStoredUser();
  if (user) {
    void queueRevocation({
      userId: user.id,
      username: user.username,
      token: user.token,
      exp: user.exp,
    }).catch((error: unknown) => console.error("The sign-out could not be queued for the server", error));
  }
  clearHeldPassword();
  clearStoredUser();
  for (const hook of signOutHooks) hook();
  if (reason) showToast(reason, "error", TOAST_SESSION_MS);
}

/**
 * The outbox may be the first to learn that the server revoked this session: its background send
 * meets the 401 and marks the token rejected (session-tokens.ts) while the page asks nothing.
 * After every drain (the page's or the service worker's) the signed-in user's token is read
 * back; when it is the rejected one, the session ends as at a page's own first 401: what is on
 * screen is cleared and the sign-in page says why (spec 01: a revoked session signs out).
 */
import { refusedTokenMessage, statusMessages } from "../api/error-messages.ts";
import { subscribeToOutbox } from "../outbox/outbox-store.ts";
import { getSessionToken } from "../outbox/session-tokens.ts";
import { logout } from "./logout.ts";
import { getStoredUser } from "./session-store.ts";
import { rememberSignOutReason } from "./sign-out-reason.ts";

export async function endSessionRefusedInOutbox(): Promise<boolean> {
  const user = getStoredUser();
  if (!user) return false;
  const saved = await getSessionToken(user.id).catch(() => undefined);
  // Still the same session, and no sign-in since: a new token clears the rejection.
  if (!saved?.rejected || saved.token !== user.token || getStoredUser()?.token !== user.token) return false;
  const reason = refusedTokenMessage({ code: saved.rejectedCode });
  if (reason) {
    rememberSignOutReason(reason);
    logout();
  } else {
    logout(statusMessages[401]);
  }
  return true;
}

/**
 * Every drain records its 401 on the item it sent, after marking the token, and every change of
 * the outbox is announced to every tab (outbox-store.ts): the check runs on each, and once at
 * start for a rejection met while no tab was open.
 */
export function watchOutboxForRefusedSession() {
  const check = () => void endSessionRefusedInOutbox();
  check();
  return subscribeToOutbox(check);
}

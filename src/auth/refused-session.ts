/**
 * A session the server refused: the first 401 to a request that carried its token signs the
 * device out, clearing what is on screen, and the sign-in page says why when the server said
 * (a revoked session, a deactivated account). The page's own request may meet that 401 first
 * (request.ts), or the outbox's background send may, marking the token rejected
 * (session-tokens.ts) while the page asks nothing: after every drain, the page's or the service
 * worker's, the signed-in user's token is read back, and the session ends the same way.
 */
import { refusedTokenMessage, statusMessages } from "../api/error-messages.ts";
import { subscribeToOutbox } from "../outbox/outbox-store.ts";
import { getSessionToken } from "../outbox/session-tokens.ts";
import { logout } from "./logout.ts";
import { getStoredUser } from "./session-store.ts";
import { rememberSignOutReason } from "./sign-out-reason.ts";

/** Signs out after the server's 401 to this session's token, with the reason its code gives. */
export function endRefusedSession(errorBody: unknown) {
  const reason = refusedTokenMessage(errorBody);
  if (reason) {
    // The sign-in page says why, not a passing toast.
    rememberSignOutReason(reason);
    logout();
  } else {
    logout(statusMessages[401]);
  }
}

export async function endSessionRefusedInOutbox(): Promise<boolean> {
  const user = getStoredUser();
  if (!user) return false;
  const saved = await getSessionToken(user.id).catch(() => undefined);
  // Still the same session, and no sign-in since: a new token clears the rejection.
  if (!saved?.rejected || saved.token !== user.token || getStoredUser()?.token !== user.token) return false;
  endRefusedSession({ code: saved.rejectedCode });
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

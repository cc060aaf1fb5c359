/**
 * Keeps the outbox's copy of the signed-in user's token (IndexedDB, readable by the service
 * worker) in step with the stored user: a new token is saved and the outbox drained, a
 * sign-out removes that user's token so their items wait for them.
 */
import { getStoredUser, subscribeToStoredUser } from "../auth/session-store.ts";
import { requestFlush } from "../outbox/flusher.ts";
import { removeSessionToken, saveSessionToken } from "../outbox/session-tokens.ts";

export function mirrorSessionTokens() {
  let lastUserId: number | undefined;
  const mirror = async () => {
    const user = getStoredUser();
    if (lastUserId !== undefined && lastUserId !== user?.id) await removeSessionToken(lastUserId);
    lastUserId = user?.id;
    if (user) {
      await saveSessionToken(user.id, user.token, user.exp);
      void requestFlush();
    }
  };
  void mirror();
  return subscribeToStoredUser(() => void mirror());
}

/**
 * Keeps the outbox's copy of the signed-in user's token (IndexedDB, readable by the service
 * worker) in step with the stored user: a new token is saved and the outbox drained, a
 * sign-out removes that user's token so their items wait for them.
 */
import { getStoredUser, subscribeToStoredUser, tokenExpiresAtOnDevice } from "../auth/session-store.ts";
import { requestFlush } from "../outbox/flusher.ts";
import { removeSessionToken, saveSessionToken } from "../outbox/session-tokens.ts";

export function mirrorSessionTokens() {
  let lastUserId: number | undefined;
  const mirror = async () => {
    const user = getStoredUser();
    if (lastUserId !== undefined && lastUserId !== user?.id) await removeSessionToken(lastUserId);
    lastUserId = user?.id;
    if (user) {
      // The outbox (and the service worker) judge expiry on the device's clock: give it that.
      await saveSessionToken(user.id, user.token, Math.floor(tokenExpiresAtOnDevice(user) / 1000));
      void requestFlush();
    }
  };
  void mirror();
  return subscribeToStoredUser(() => void mirror());
}

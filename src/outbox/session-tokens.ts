/**
 * The token each user signed in with, kept in IndexedDB so that the outbox (in any tab or in the
 * service worker, which has no localStorage) sends each item with the token of the user who
 * made it, read at send time. A 401 marks that token rejected: the user's items wait until they
 * sign in again. Signing out removes the token; the items stay.
 */
import { createStore, del, get, set } from "idb-keyval";

const tokenStore = createStore("clinro-sessions", "tokens");

export type SessionToken = {
  token: string;
  exp: number;
  rejected?: boolean;
  /** The code of the 401 that rejected it (token_revoked, user_deactivated…): the sign-in page says why. */
  rejectedCode?: string;
};

export function getSessionToken(userId: number) {
  return get<SessionToken>(userId, tokenStore);
}

/** Stores the user's current token; a new token clears an earlier rejection. */
export async function saveSessionToken(userId: number, token: string, exp: number) {
  const current = await getSessionToken(userId);
  if (current?.token === token) return;
  await set(userId, { token, exp } satisfies SessionToken, tokenStore);
}

export async function markTokenRejected(userId: number, token: string, code?: string) {
  const current = await getSessionToken(userId);
  if (current?.token === token) {
    await set(userId, { ...current, rejected: true, ...(code ? { rejectedCode: code } : {}) }, tokenStore);
  }
}

export function removeSessionToken(userId: number) {
  return del(userId, tokenStore);
}

/** A token that can be sent: present, not rejected by the server, not expired. */
export function usableToken(session: SessionToken | undefined, now: number) {
  if (!session || session.rejected || session.exp * 1000 <= now) return undefined;
  return session.token;
}

export type SessionTokens = {
  get: typeof getSessionToken;
  markRejected: typeof markTokenRejected;
};

export const indexedDbSessionTokens: SessionTokens = {
  get: getSessionToken,
  markRejected: markTokenRejected,
};

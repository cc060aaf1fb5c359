/**
 * Queries marked `meta: { persist: true }` (participant lists, the participant home, the user's
 * studies) are kept in IndexedDB per user, so they show offline after a reload. On sign-out the
 * user's persisted cache is deleted: nothing about participants stays behind.
 */
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistedClient,
  type Persister,
} from "@tanstack/query-persist-client-core";
import type { QueryClient } from "@tanstack/react-query";
import { createStore, del, get, set } from "idb-keyval";
import { getStoredUser, subscribeToStoredUser } from "../auth/session-store.ts";

export const PERSISTED_QUERY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const cacheStore = createStore("clinro-query-cache", "clients");

function persisterFor(userId: number): Persister {
  return {
    persistClient: (client: PersistedClient) => set(userId, client, cacheStore),
    restoreClient: () => get<PersistedClient>(userId, cacheStore),
    removeClient: () => del(userId, cacheStore),
  };
}

export function deletePersistedQueries(userId: number) {
  return del(userId, cacheStore);
}

export function persistQueries(queryClient: QueryClient, appVersion: string) {
  let currentUserId: number | undefined;
  let unsubscribe: (() => void) | undefined;
  const follow = async () => {
    const user = getStoredUser();
    if (user?.id === currentUserId) return;
    unsubscribe?.();
    unsubscribe = undefined;
    if (currentUserId !== undefined) await deletePersistedQueries(currentUserId);
    currentUserId = user?.id;
    if (!user) return;
    const persister = persisterFor(user.id);
    await persistQueryClientRestore({
      queryClient,
      persister,
      maxAge: PERSISTED_QUERY_MAX_AGE_MS,
      buster: appVersion,
    });
    unsubscribe = persistQueryClientSubscribe({
      queryClient,
      persister,
      buster: appVersion,
      dehydrateOptions: {
        shouldDehydrateQuery: (query) => query.state.status === "success" && query.meta?.persist === true,
      },
    });
  };
  void follow();
  return subscribeToStoredUser(() => void follow());
}

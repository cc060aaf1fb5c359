/**
 * Queries marked `meta: { persist: true }` (participant lists, the participant home, the user's
 * studies) are kept in IndexedDB per user, so they show offline after a reload. On sign-out the
 * user's persisted cache is deleted: nothing about participants stays behind.
 */
import {
  persistQueryClientRestore,
  persistQueryClientSave,
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

/** The cache events that change what is persisted (not observers coming and going). */
const CHANGES = new Set(["added", "removed", "updated"]);

/**
 * Saves the cache after its changes, one save at a time: changes made while a save is under way
 * are saved together by the next one. The library's own subscription saves at every change, and
 * a page's first load makes dozens (each query added, fetching, answered): dozens of IndexedDB
 * writes that the browser runs in turn, and the page's own first read (its draft) waited behind
 * them. The last change is still saved as soon as the save before it is done. Once stopped,
 * nothing more is saved: a save under way was asked before whatever the caller does next.
 */
function saveAfterChanges(queryClient: QueryClient, save: () => Promise<void>) {
  let saving = false;
  let changed = false;
  let stopped = false;
  const saveChanges = async () => {
    saving = true;
    while (changed && !stopped) {
      changed = false;
      // A failed save (quota, private mode) leaves the next change to try again.
      await save().catch(() => undefined);
    }
    saving = false;
  };
  const onChange = ({ type }: { type: string }) => {
    if (!CHANGES.has(type)) return;
    changed = true;
    if (!saving) void saveChanges();
  };
  const stopQueries = queryClient.getQueryCache().subscribe(onChange);
  const stopMutations = queryClient.getMutationCache().subscribe(onChange);
  return () => {
    stopped = true;
    stopQueries();
    stopMutations();
  };
}

/**
 * Follows the signed-in user: restores their persisted queries, saves their changes, and deletes
 * what was saved for the one before. `restored` is the restore of the current user: the router
 * waits for it before a route loads, so that a page opened offline after a reload finds what the
 * device kept instead of racing the restore with a request that cannot succeed.
 */
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
    unsubscribe = saveAfterChanges(queryClient, () =>
      persistQueryClientSave({
        queryClient,
        persister,
        buster: appVersion,
        dehydrateOptions: {
          // What the device has is kept even when its last refetch failed (the server down):
          // saving only successful queries dropped the participant's page from the device at the
          // first failed refetch, and a reload during the outage then had nothing to show.
          shouldDehydrateQuery: (query) => query.state.data !== undefined && query.meta?.persist === true,
        },
      }),
    );
  };
  // One change of user at a time, in order: a restore is never overtaken by the next sign-in's.
  let following: Promise<void> = Promise.resolve();
  const followInTurn = () => {
    following = following.then(follow).catch(() => undefined);
  };
  followInTurn();
  const stop = subscribeToStoredUser(followInTurn);
  return { stop, restored: () => following };
}

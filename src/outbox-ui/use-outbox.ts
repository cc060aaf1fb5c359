/**
 * Screens observe the outbox through React Query: one query over the IndexedDB store, refreshed
 * whenever any tab or the worker changes it. The pending badge, the queue review page and the
 * submit modals all read this one truth.
 */
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { itemStatus } from "../outbox/item-status.ts";
import type { OutboxItem, OutboxItemStatus } from "../outbox/outbox-item.ts";
import { listItems, subscribeToOutbox } from "../outbox/outbox-store.ts";
import { getSessionToken, usableToken } from "../outbox/session-tokens.ts";
import { NOTHING_UNSENT, summarizeUnsent, type UnsentSummary } from "./unsent-summary.ts";

/** An item as screens see it: without the token of the session it belongs to. */
export type ObservedItem = Omit<OutboxItem, "session"> & { status: OutboxItemStatus };

export const outboxKeys = { all: ["outbox"] as const };

async function observeOutbox(): Promise<ObservedItem[]> {
  const items = await listItems();
  const now = Date.now();
  const sendable = new Map<number, boolean>();
  for (const userId of new Set(items.map((item) => item.userId))) {
    sendable.set(userId, usableToken(await getSessionToken(userId), now) !== undefined);
  }
  return items.map((item) => {
    const { session: _token, ...shown } = item;
    return { ...shown, status: itemStatus(item, items, (userId) => sendable.get(userId) ?? false, now) };
  });
}

export const outboxQuery = () =>
  queryOptions({
    queryKey: outboxKeys.all,
    queryFn: observeOutbox,
    // The outbox is local: it must be readable offline, and never goes stale by time.
    networkMode: "always",
    staleTime: Infinity,
    enabled: true,
  });

/**
 * A drain changes the store once per item: screens re-read it at most this often, so that a
 * flush of hundreds of items is not slowed by re-reading the whole store after each one.
 */
export const OUTBOX_REFRESH_INTERVAL_MS = 250;

/** Keeps the outbox query current; mount once, high in the tree. */
export function useOutboxChanges() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribeToOutbox(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: outboxKeys.all });
      }, OUTBOX_REFRESH_INTERVAL_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [queryClient]);
}

export function useOutboxItems() {
  return useQuery(outboxQuery());
}

/** Items not yet delivered for one user: the navigation bar's badge. */
export function usePendingCount(userId: number | undefined) {
  const { data } = useOutboxItems();
  return userId === undefined ? 0 : (data ?? []).filter((item) => item.userId === userId).length;
}

/** The user's items not yet delivered, counted as forms, new participants, files and updates. */
export function usePendingSummary(userId: number | undefined): UnsentSummary {
  const { data } = useOutboxItems();
  return userId === undefined
    ? NOTHING_UNSENT
    : summarizeUnsent((data ?? []).filter((item) => item.userId === userId));
}

/**
 * The outbox's IndexedDB store (idb-keyval, its own database): one record per item, blobs
 * included. Every change is announced to this page, other tabs and the service worker through
 * a BroadcastChannel, so that every screen observing the outbox sees the same truth.
 * Records are versioned and read through a zod parse (stored-records.ts); one that cannot be read
 * is left in place, never sent and never dropped, and listed by listUnreadableItems.
 */
import { createStore, del, entries, get, set, update } from "idb-keyval";
import type { OutboxItem } from "./outbox-item.ts";
import { readOutboxRecord, toStoredOutboxItem } from "./stored-records.ts";

const itemStore = createStore("clinro-outbox", "items");
const CHANGE_CHANNEL = "clinro-outbox";

type Listener = () => void;
const listeners = new Set<Listener>();
let channel: BroadcastChannel | undefined;

function changeChannel() {
  if (!channel && typeof BroadcastChannel !== "undefined") {
    channel = new BroadcastChannel(CHANGE_CHANNEL);
    channel.onmessage = () => {
      for (const listener of listeners) listener();
    };
  }
  return channel;
}

function announceChange() {
  for (const listener of listeners) listener();
  changeChannel()?.postMessage("changed");
}

export function subscribeToOutbox(listener: Listener) {
  changeChannel();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export async function putItem(item: OutboxItem) {
  await set(item.id, toStoredOutboxItem(item), itemStore);
  announceChange();
}

/** The item, migrated to the current shape; undefined when it is gone or cannot be read. */
export async function getItem(id: string): Promise<OutboxItem | undefined> {
  const raw = await get<unknown>(id, itemStore);
  if (raw === undefined) return undefined;
  const read = readOutboxRecord(raw);
  return read.ok ? read.value : undefined;
}

/**
 * Changes an item in one transaction; does nothing when it is gone (delivered meanwhile) or
 * cannot be read (it stays as it is). An older shape is written back in the current one.
 */
export async function updateItem(id: string, change: (item: OutboxItem) => OutboxItem) {
  await update<unknown>(
    id,
    (raw) => {
      if (raw === undefined) return undefined;
      const read = readOutboxRecord(raw);
      return read.ok ? toStoredOutboxItem(change(read.value)) : raw;
    },
    itemStore,
  );
  announceChange();
}

export async function removeItem(id: string) {
  await del(id, itemStore);
  announceChange();
}

/** Every readable item, migrated to the current shape, oldest first: the order they are sent in. */
export async function listItems(): Promise<OutboxItem[]> {
  const items: OutboxItem[] = [];
  for (const [, raw] of await entries<IDBValidKey, unknown>(itemStore)) {
    const read = readOutboxRecord(raw);
    if (read.ok) items.push(read.value);
  }
  return items.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/** A stored record this version of the portal cannot read, kept as it was found. */
export type UnreadableRecord = { store: "outbox" | "drafts"; key: string; problem: string; record: unknown };

/** The outbox records that cannot be read: shown on the review page, never sent or dropped. */
export async function listUnreadableItems(): Promise<UnreadableRecord[]> {
  const unreadable: UnreadableRecord[] = [];
  for (const [key, raw] of await entries<IDBValidKey, unknown>(itemStore)) {
    const read = readOutboxRecord(raw);
    if (!read.ok) unreadable.push({ store: "outbox", key: String(key), problem: read.problem, record: raw });
  }
  return unreadable;
}

/** How many of a user's items are still on this device, read from the store itself. */
export async function countItemsOf(userId: number) {
  return (await listItems()).filter((item) => item.userId === userId).length;
}

export type OutboxStore = {
  list: typeof listItems;
  get: typeof getItem;
  update: typeof updateItem;
  remove: typeof removeItem;
};

export const indexedDbOutboxStore: OutboxStore = {
  list: listItems,
  get: getItem,
  update: updateItem,
  remove: removeItem,
};

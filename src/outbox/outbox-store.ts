/**
 * The outbox's IndexedDB store (idb-keyval, its own database): one record per item, blobs
 * included. Every change is announced to this page, other tabs and the service worker through
 * a BroadcastChannel, so that every screen observing the outbox sees the same truth.
 */
import { createStore, del, get, set, update, values } from "idb-keyval";
import type { OutboxItem } from "./outbox-item.ts";

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
  await set(item.id, item, itemStore);
  announceChange();
}

export function getItem(id: string) {
  return get<OutboxItem>(id, itemStore);
}

/** Changes an item in one transaction; does nothing when it is gone (delivered meanwhile). */
export async function updateItem(id: string, change: (item: OutboxItem) => OutboxItem) {
  await update<OutboxItem | undefined>(id, (item) => (item ? change(item) : undefined), itemStore);
  announceChange();
}

export async function removeItem(id: string) {
  await del(id, itemStore);
  announceChange();
}

/** Every item, oldest first: the order they are sent in. */
export async function listItems(): Promise<OutboxItem[]> {
  const items = await values<OutboxItem>(itemStore);
  return items.filter(Boolean).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
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

/**
 * The outbox's IndexedDB store (idb-keyval, its own database): one record per item, files as
 * bytes (stored-records.ts). Every change is announced to this page, other tabs and the service worker through
 * a BroadcastChannel, so that every screen observing the outbox sees the same truth.
 * Records are versioned and read through a zod parse (stored-records.ts); one that cannot be read
 * is left in place, never sent and never dropped, and listed by listUnreadableItems. A record an
 * older version left with Blobs is rewritten with bytes the first time it is read.
 */
import { createStore, del, entries, get, promisifyRequest, set } from "idb-keyval";
import type { OutboxItem } from "./outbox-item.ts";
import { readOutboxRecord, toStoredOutboxItem, upgradeOutboxRecord } from "./stored-records.ts";

const itemStore = createStore("clinro-outbox", "items");
const CHANGE_CHANNEL = "clinro-outbox";

type Listener = () => void;
const listeners = new Set<Listener>();
let channel: InstanceType<typeof BroadcastChannel> | undefined;

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

/**
 * Changes a record in one transaction, when it is still there: idb-keyval's update would write
 * `undefined` under the key of an item delivered meanwhile, leaving a record nobody can read.
 */
function updateIfPresent(key: string, change: (raw: unknown) => unknown): Promise<void> {
  return itemStore("readwrite", (store) => {
    const read = store.get(key);
    read.onsuccess = () => {
      if (read.result !== undefined) store.put(change(read.result), key);
    };
    return promisifyRequest(store.transaction);
  });
}

type SendingState = { attempts?: unknown; state?: unknown; nextAttemptAt?: unknown; schemaVersion?: unknown };
const sameSendingState = (a: unknown, b: unknown) => {
  const [x, y] = [a as SendingState | undefined, b as SendingState | undefined];
  return (
    x?.schemaVersion === y?.schemaVersion &&
    x?.attempts === y?.attempts &&
    x?.state === y?.state &&
    x?.nextAttemptAt === y?.nextAttemptAt
  );
};

/**
 * The record as the current version stores it: an older record holding Blobs is read into bytes
 * and written back, unless a drain changed it while its files were read (then the next read
 * upgrades that change).
 */
async function upgraded(key: string, raw: unknown): Promise<unknown> {
  const upgrade = await upgradeOutboxRecord(raw);
  if (upgrade === undefined) return raw;
  let stored: unknown;
  await updateIfPresent(key, (current) => {
    stored = sameSendingState(current, raw) ? upgrade : current;
    return stored;
  });
  return stored;
}

async function allRecords(): Promise<[string, unknown][]> {
  const found = await entries<string, unknown>(itemStore);
  const current = await Promise.all(
    found.map(async ([key, raw]) => [key, await upgraded(key, raw)] as [string, unknown]),
  );
  // An item delivered while its files were read is gone.
  return current.filter(([, raw]) => raw !== undefined);
}

/** The item, migrated to the current shape; undefined when it is gone or cannot be read. */
export async function getItem(id: string): Promise<OutboxItem | undefined> {
  const raw = await get<unknown>(id, itemStore);
  if (raw === undefined) return undefined;
  const read = readOutboxRecord(await upgraded(id, raw));
  return read.ok ? read.value : undefined;
}

/**
 * Changes an item in one transaction; does nothing when it is gone (delivered meanwhile) or
 * cannot be read (it stays as it is). An older shape is written back in the current one.
 */
export async function updateItem(id: string, change: (item: OutboxItem) => OutboxItem) {
  await updateIfPresent(id, (raw) => {
    const read = readOutboxRecord(raw);
    return read.ok ? toStoredOutboxItem(change(read.value)) : raw;
  });
  announceChange();
}

export async function removeItem(id: string) {
  await del(id, itemStore);
  announceChange();
}

/** Every readable item, migrated to the current shape, oldest first: the order they are sent in. */
export async function listItems(): Promise<OutboxItem[]> {
  const items: OutboxItem[] = [];
  for (const [, raw] of await allRecords()) {
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
  for (const [key, raw] of await allRecords()) {
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

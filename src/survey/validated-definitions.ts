/**
 * Definitions this device has already validated, so that a definition is checked once, not at
 * every opening: validating 1,000 questions costs 100 to 200 ms of a cold page, reading the
 * stored result back a few. An entry is the parsed definition (defaults filled in) as the
 * validator returned it, keyed by the app version and the SHA-256 of the body the server sent: a
 * changed body, or an app whose rules may have changed, is validated again. Nothing is stored
 * for a definition that did not validate, so nothing unvalidated is ever shown.
 *
 * Owns the IndexedDB store "clinro-validated-definitions": at most MAX_ENTRIES definitions, the
 * least recently used dropped first. Every failure of the store (private mode, quota) means
 * "not known": the caller validates, as it would without this module.
 */
import { createStore, del, get, set, setMany } from "idb-keyval";

const MAX_ENTRIES = 30;
const INDEX_KEY = "lru-index";
const store = createStore("clinro-validated-definitions", "definitions");

let storeBroken = false;

/** The key of a body as the definition call read it: the JSON's text, a Blob (a zip), or a value. */
export async function validatedDefinitionKey(body: unknown, appVersion: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  try {
    const bytes =
      body instanceof Blob
        ? new Uint8Array(await body.arrayBuffer())
        : new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    let hex = "";
    for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
    return `${appVersion}:${hex}`;
  } catch {
    return undefined;
  }
}

export async function readValidatedDefinition<T>(key: string): Promise<T | undefined> {
  if (storeBroken) return undefined;
  try {
    const found = await get<T>(key, store);
    if (found !== undefined) void touch(key);
    return found;
  } catch {
    storeBroken = true;
    return undefined;
  }
}

/** Stores the result of a successful validation. */
export async function rememberValidatedDefinition<T>(key: string, value: T): Promise<void> {
  if (storeBroken) return;
  try {
    await set(key, value, store);
    await touch(key);
  } catch {
    // Not remembered: the next opening validates again.
  }
}

/** Moves key to the end of the use order and drops what falls off the front. */
async function touch(key: string) {
  try {
    const order = ((await get<string[]>(INDEX_KEY, store)) ?? []).filter((known) => known !== key);
    order.push(key);
    const dropped = order.splice(0, Math.max(0, order.length - MAX_ENTRIES));
    await setMany([[INDEX_KEY, order]], store);
    for (const old of dropped) await del(old, store);
  } catch {
    // The order is a hint; a lost update only keeps an entry a little longer.
  }
}

/**
 * Persistent storage for the outbox: without it the browser may evict IndexedDB (and with it
 * queued writes) when the device runs low on space. We ask for it once per page load, only
 * while it is not granted yet, and report how it stands for the queue review page. Owns no
 * state beyond "already asked in this page"; the browser keeps the real answer.
 */

export type StorageStatus = {
  /** Whether the browser granted persistent storage; undefined when it cannot say. */
  persisted: boolean | undefined;
  /** Bytes this origin uses, as the browser estimates it; undefined when it cannot say. */
  usageBytes: number | undefined;
  /** Bytes this origin may use; undefined when it cannot say. */
  quotaBytes: number | undefined;
};

function storageManager(): StorageManager | undefined {
  return typeof navigator === "undefined" ? undefined : navigator.storage;
}

let request: Promise<boolean> | undefined;

/**
 * Asks the browser to keep this origin's storage (navigator.storage.persist). Asks at most once
 * per page load and not at all when storage is already persistent. Resolves to whether storage
 * is persistent; false where the browser has no such API or the request fails.
 */
export function requestPersistentStorage(): Promise<boolean> {
  request ??= (async () => {
    const storage = storageManager();
    if (!storage?.persist) return false;
    try {
      if (storage.persisted && (await storage.persisted())) return true;
      return await storage.persist();
    } catch {
      return false;
    }
  })();
  return request;
}

/** Whether storage is persistent and how much of the quota is used; fields the browser cannot tell are undefined. */
export async function readStorageStatus(): Promise<StorageStatus> {
  const storage = storageManager();
  const [persisted, estimate] = await Promise.all([
    storage?.persisted ? storage.persisted().catch(() => undefined) : Promise.resolve(undefined),
    storage?.estimate ? storage.estimate().catch(() => undefined) : Promise.resolve(undefined),
  ]);
  return { persisted, usageBytes: estimate?.usage, quotaBytes: estimate?.quota };
}

/**
 * Whether the app runs installed (from the home screen): Safari keeps an installed web app's
 * data; in a browser tab it may clear a site's data after seven days without use.
 */
export function runsInstalled(): boolean {
  if (typeof window === "undefined") return false;
  const standalone =
    typeof window.matchMedia === "function" && window.matchMedia("(display-mode: standalone)").matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/**
 * Whether the browser may clear what this device keeps (queued answers included) without asking:
 * persistent storage was not granted, or the browser cannot say (WebKit has no such call), and
 * the app does not run installed.
 */
export function mayBeCleared(status: Pick<StorageStatus, "persisted">, installed: boolean): boolean {
  return status.persisted !== true && !installed;
}

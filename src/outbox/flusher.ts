/**
 * When the outbox is drained in a page: at start-up, when the network comes back, when the page
 * becomes visible, after every enqueue, and when the earliest backoff runs out. One drain at a
 * time across tabs and the service worker (a Web Lock); in this page, requests made while a
 * drain runs are folded into one more round. Where the browser has Background Sync, the service
 * worker is asked to drain too, so that items leave even after the tab is closed.
 */
import { BACKGROUND_SYNC_TAG, drainUnderLock } from "./drain-under-lock.ts";
import type { DrainReport } from "./drain.ts";
import { setFlushRequester } from "./enqueue.ts";
import { updateItem } from "./outbox-store.ts";
/** Even with nothing due, look again this often: a cheap safety net for missed signals. */
const IDLE_RECHECK_MS = 60_000;

let running: Promise<DrainReport> | undefined;
let runAgain = false;
let nextIgnoresBackoff = false;
let timer: ReturnType<typeof setTimeout> | undefined;

function scheduleNext(report: DrainReport) {
  clearTimeout(timer);
  const wait = report.nextDueAt === undefined ? IDLE_RECHECK_MS : Math.max(0, report.nextDueAt - Date.now());
  timer = setTimeout(() => void requestFlush(), Math.min(wait, IDLE_RECHECK_MS));
}

async function registerBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (
      registration as
        (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined
    )?.sync;
    await sync?.register(BACKGROUND_SYNC_TAG);
  } catch {
    // No Background Sync here (or not allowed): the page's own triggers remain.
  }
}

/**
 * Drains now, or once more after the drain that is running. `ignoreBackoff` sends items whose
 * wait has not run out: when the network comes back, the wait it caused is over.
 */
export function requestFlush(options: { ignoreBackoff?: boolean } = {}): Promise<DrainReport> {
  nextIgnoresBackoff ||= options.ignoreBackoff === true;
  if (running) {
    runAgain = true;
    return running;
  }
  running = (async () => {
    try {
      let report: DrainReport;
      do {
        runAgain = false;
        const ignoreBackoff = nextIgnoresBackoff;
        nextIgnoresBackoff = false;
        report = await drainUnderLock({ ignoreBackoff });
      } while (runAgain);
      if (report.offline || report.retrying.length > 0) void registerBackgroundSync();
      scheduleNext(report);
      return report;
    } finally {
      running = undefined;
    }
  })();
  return running;
}

/** "Retry now": the given items are due at once, a refused item is given one more chance. */
export async function retryNow(ids: readonly string[]) {
  for (const id of ids) {
    await updateItem(id, (item) => ({ ...item, state: "pending", nextAttemptAt: 0 }));
  }
  return requestFlush();
}

/** Starts the page's triggers; returns a function that stops them. */
export function startOutboxFlusher() {
  setFlushRequester(() => {
    void registerBackgroundSync();
    void requestFlush();
  });
  const onOnline = () => void requestFlush({ ignoreBackoff: true });
  const onVisible = () => {
    if (document.visibilityState === "visible") void requestFlush();
  };
  window.addEventListener("online", onOnline);
  document.addEventListener("visibilitychange", onVisible);
  void requestFlush();
  return () => {
    window.removeEventListener("online", onOnline);
    document.removeEventListener("visibilitychange", onVisible);
    clearTimeout(timer);
  };
}

/**
 * Registers the service worker with workbox-window and tracks whether a new version waits.
 * The new worker takes over only when the user says so, so a clinician mid-form is never
 * reloaded under their hands. Registration waits for the page's load event (as workbox-window's
 * own does), and workbox-window is loaded then: it is not needed for the first page.
 */
import type { Workbox } from "workbox-window";

type Listener = () => void;
const listeners = new Set<Listener>();
let updateReady = false;
let workbox: Workbox | undefined;

function setUpdateReady(value: boolean) {
  updateReady = value;
  for (const listener of listeners) listener();
}

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}

async function register() {
  try {
    const { Workbox } = await import("workbox-window");
    workbox = new Workbox("/sw.js", { scope: "/" });
    workbox.addEventListener("waiting", () => setUpdateReady(true));
    workbox.addEventListener("controlling", (event) => {
      // Reload only when a new version took over, not on the first install.
      if (event.isUpdate) window.location.reload();
    });
    await workbox.register({ immediate: true });
  } catch {
    // A blocked or failed registration (or workbox-window not downloaded) leaves the app working
    // online; nothing to tell the user. The next page load tries again.
  }
}

export function applyUpdate() {
  workbox?.messageSkipWaiting();
}

export function isUpdateReady() {
  return updateReady;
}

export function subscribeToUpdates(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

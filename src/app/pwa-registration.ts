/**
 * Registers the service worker and tracks whether a new version waits. The new worker takes over
 * only when the user says so (a SKIP_WAITING message, sw/sw.ts), so a clinician mid-form is never
 * reloaded under their hands; once it has taken over, the page reloads to run the new version.
 *
 * The browser's own API, not workbox-window: the three events used here are the whole of what
 * it did for us, and it was 2.3 KiB gzip of every first visit. Registration waits for the page's
 * load event, so it never competes with the first page for the network.
 */
type Listener = () => void;
const listeners = new Set<Listener>();
let updateReady = false;
let registration: ServiceWorkerRegistration | undefined;

function setUpdateReady(value: boolean) {
  updateReady = value;
  for (const listener of listeners) listener();
}

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}

/** A worker installed while another controls the page waits for the user's choice. */
function watchInstalling(worker: ServiceWorker | null) {
  worker?.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) setUpdateReady(true);
  });
}

async function register() {
  // The first worker to take control is the first install, not an update: no reload for it.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled) window.location.reload();
    controlled = true;
  });
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    // A blocked or failed registration leaves the app working online; nothing to tell the user.
    return;
  }
  // A version that finished installing before this page opened is already waiting.
  if (registration.waiting && navigator.serviceWorker.controller) setUpdateReady(true);
  watchInstalling(registration.installing);
  registration.addEventListener("updatefound", () => watchInstalling(registration?.installing ?? null));
}

export function applyUpdate() {
  registration?.waiting?.postMessage({ type: "SKIP_WAITING" });
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

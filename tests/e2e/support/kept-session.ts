/**
 * A signed-in clinician for the tests that are not about signing in. The first test of a worker
 * to need a user of a server signs in through the form (signInAs); what that sign-in left on the
 * device (the stored user with its token, the password verifier and the server's signing key of
 * "clinro-signing") is kept for the worker's later tests, whose fresh browser starts with it, as
 * the tablet of a clinician who signed in earlier does. A kept session the server no longer
 * accepts (signed out, revoked, its user changed) is dropped and the form is used again.
 *
 * The stored user's last activity is set to the moment the test starts, as a sign-in sets it:
 * the 10-minute inactivity limit counts from there. What a sign-in resets on the server (the
 * refused signing tries counted since it) is not reset: a test that counts refused signing
 * passwords signs in through the form.
 */
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "../pages/login-page.ts";

type KeptSession = {
  /** The stored user (localStorage "user"), parsed. */
  user: Record<string, unknown> & { token: string };
  /** The entries of the "keys" store of the "clinro-signing" database. */
  signing: [IDBValidKey, unknown][];
};

const USER_KEY = "user";
const SIGNING_DATABASE = "clinro-signing";
const SIGNING_STORE = "keys";

/** Per worker: one per server and user. */
const kept = new Map<string, KeptSession>();

const baseUrl = () => {
  const url = test.info().project.use.baseURL;
  if (!url) throw new Error("A kept session needs the project's baseURL");
  return url;
};

async function stillAccepted(page: Page, session: KeptSession) {
  const answer = await page.request.get(new URL("/control/clinro/users/me", baseUrl()).href, {
    headers: { Authorization: `Bearer ${session.user.token}` },
  });
  return answer.ok();
}

/** What the form's sign-in left on the device. */
async function readSession(page: Page): Promise<KeptSession> {
  return page.evaluate(
    async ({ userKey, database, store }) => {
      const user = JSON.parse(localStorage.getItem(userKey) ?? "null") as KeptSession["user"];
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open(database);
        opening.onupgradeneeded = () => opening.result.createObjectStore(store);
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      const signing = await new Promise<[IDBValidKey, unknown][]>((resolve, reject) => {
        const objects = db.transaction(store, "readonly").objectStore(store);
        const keys = objects.getAllKeys();
        const values = objects.getAll();
        values.onsuccess = () => resolve(keys.result.map((key, index) => [key, values.result[index]]));
        values.onerror = () => reject(values.error);
      });
      db.close();
      return { user, signing };
    },
    { userKey: USER_KEY, database: SIGNING_DATABASE, store: SIGNING_STORE },
  );
}

/**
 * Puts the session on the device before the app's first script runs, once per tab (a reload
 * keeps whatever the app made of it since).
 */
async function restoreSession(page: Page, session: KeptSession) {
  await page.addInitScript(
    ({ serialized, userKey, database, store, marker }) => {
      if (window !== window.top || sessionStorage.getItem(marker)) return;
      sessionStorage.setItem(marker, "1");
      const session = JSON.parse(serialized) as { user: object; signing: [IDBValidKey, unknown][] };
      localStorage.setItem(userKey, JSON.stringify({ ...session.user, last_active: Date.now() }));
      // Queued before any request of the app's own: IndexedDB runs the opens, and then the
      // transactions on one store, in the order they were made.
      const opening = indexedDB.open(database);
      opening.onupgradeneeded = () => opening.result.createObjectStore(store);
      opening.onsuccess = () => {
        const db = opening.result;
        const writing = db.transaction(store, "readwrite");
        for (const [key, value] of session.signing) writing.objectStore(store).put(value, key);
        writing.oncomplete = () => db.close();
      };
    },
    {
      serialized: JSON.stringify(session),
      userKey: USER_KEY,
      database: SIGNING_DATABASE,
      store: SIGNING_STORE,
      // One per restore: a test that signs out and in as someone else restores a second session.
      marker: `e2e-kept-session:${randomUUID()}`,
    },
  );
}

/**
 * Signed in as the user and on the studies page, as after the form. For a test about the
 * sign-in itself, use signInAs.
 */
export async function signedInWithKeptSession(page: Page, username: string, password: string) {
  const key = `${baseUrl()}|${username}`;
  const session = kept.get(key);
  if (session && (await stillAccepted(page, session))) {
    await restoreSession(page, session);
    await page.goto("/studies");
  } else {
    kept.delete(key);
    await signInAs(page, username, password);
    await expect(page).toHaveURL(/\/studies$/);
    const made = await readSession(page);
    if (made.user?.token && !made.user.is_temporary_password) kept.set(key, made);
  }
  await expect(page).toHaveURL(/\/studies$/);
}

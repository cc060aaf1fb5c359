// @vitest-environment jsdom (the stored session in localStorage)
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { drainOutbox } from "../outbox/drain.ts";
import { eventsWrite, makeOutboxItem } from "../outbox/enqueue.ts";
import { indexedDbOutboxStore, listItems, putItem, removeItem } from "../outbox/outbox-store.ts";
import { indexedDbSessionTokens, saveSessionToken } from "../outbox/session-tokens.ts";
import { endSessionRefusedInOutbox, watchOutboxForRefusedSession } from "./refused-session.ts";
import { getStoredUser, setStoredUser } from "./session-store.ts";
import { forgetSignOutReason, signOutReason } from "./sign-out-reason.ts";

const USER = { id: 41, username: "rater@site.test" };
const FAR_FUTURE_SECONDS = Math.floor(Date.now() / 1000) + 3600;

async function signedIn(token: string) {
  setStoredUser({
    ...USER,
    token,
    exp: FAR_FUTURE_SECONDS,
    is_temporary_password: false,
    last_active: Date.now(),
  });
  await saveSessionToken(USER.id, token, FAR_FUTURE_SECONDS);
}

/** One background round whose only item meets the server's 401 with this code. */
async function drainRefused(code: string) {
  const item = makeOutboxItem(eventsWrite([{ type: "seen" }], "seen"), {
    userId: USER.id,
    username: USER.username,
    participantId: 3,
  });
  await putItem(item);
  await drainOutbox({
    store: indexedDbOutboxStore,
    tokens: indexedDbSessionTokens,
    send: async () => ({ kind: "answered", status: 401, message: "Unauthorized", body: { code } }),
  });
  return item;
}

afterEach(async () => {
  for (const item of await listItems()) await removeItem(item.id);
  localStorage.clear();
  forgetSignOutReason();
});

describe("a session the outbox learns was revoked", () => {
  it("signs out with the server's reason at the outbox's first 401, keeping the item", async () => {
    await signedIn("revoked-token");
    const stop = watchOutboxForRefusedSession();
    const item = await drainRefused("token_revoked");
    await expect.poll(() => getStoredUser()).toBeNull();
    expect(signOutReason()?.id).toBe("error_401_token_revoked");
    expect((await listItems()).map((kept) => kept.id)).toContain(item.id);
    stop();
  });

  it("says a deactivated account's reason", async () => {
    await signedIn("deactivated-token");
    await drainRefused("user_deactivated");
    expect(await endSessionRefusedInOutbox()).toBe(true);
    expect(getStoredUser()).toBeNull();
    expect(signOutReason()).toBeDefined();
  });

  it("leaves a newer session alone: a sign-in since replaced the refused token", async () => {
    await signedIn("old-token");
    await drainRefused("token_revoked");
    await signedIn("new-token");
    expect(await endSessionRefusedInOutbox()).toBe(false);
    expect(getStoredUser()?.token).toBe("new-token");
    expect(signOutReason()).toBeUndefined();
  });

  it("does nothing while the token is accepted", async () => {
    await signedIn("good-token");
    expect(await endSessionRefusedInOutbox()).toBe(false);
    expect(getStoredUser()?.token).toBe("good-token");
  });
});

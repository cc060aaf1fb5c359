import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { claimDraft, draftKeyFor, loadDraft, removeDraft, saveDraft } from "./drafts.ts";
import { eventsWrite, makeOutboxItem } from "./enqueue.ts";
import { getItem, listItems, putItem, removeItem, subscribeToOutbox, updateItem } from "./outbox-store.ts";
import { getSessionToken, markTokenRejected, saveSessionToken, usableToken } from "./session-tokens.ts";

const context = { userId: 7, username: "c@demo.test", participantId: 3 };

describe("the outbox store in IndexedDB", () => {
  it("keeps items across reads, oldest first, and announces every change", async () => {
    let changes = 0;
    const stop = subscribeToOutbox(() => changes++);
    const later = makeOutboxItem(eventsWrite([{ type: "seen" }], "later"), context, 2000);
    const earlier = makeOutboxItem(eventsWrite([{ type: "seen" }], "earlier"), context, 1000);
    await putItem(later);
    await putItem(earlier);
    expect((await listItems()).map((item) => item.label)).toEqual(["earlier", "later"]);
    await updateItem(earlier.id, (item) => ({ ...item, attempts: 3 }));
    expect((await getItem(earlier.id))?.attempts).toBe(3);
    await removeItem(earlier.id);
    await removeItem(later.id);
    expect(await listItems()).toEqual([]);
    expect(changes).toBe(5);
    stop();
  });

  it("does not bring back an item that was delivered while it was being changed", async () => {
    const item = makeOutboxItem(eventsWrite([], "x"), context);
    await updateItem(item.id, (current) => ({ ...current, attempts: 1 }));
    expect(await getItem(item.id)).toBeUndefined();
  });
});

describe("session tokens for the outbox", () => {
  it("marks a token rejected, and a new sign-in clears the rejection", async () => {
    await saveSessionToken(9, "first", 4_000_000_000);
    await markTokenRejected(9, "first");
    expect(usableToken(await getSessionToken(9), Date.now())).toBeUndefined();
    await saveSessionToken(9, "second", 4_000_000_000);
    expect(usableToken(await getSessionToken(9), Date.now())).toBe("second");
  });

  it("does not mark a newer token rejected for an older token's 401", async () => {
    await saveSessionToken(10, "new", 4_000_000_000);
    await markTokenRejected(10, "old");
    expect(usableToken(await getSessionToken(10), Date.now())).toBe("new");
  });
});

describe("drafts", () => {
  it("saves on every answer and resumes from the last one", async () => {
    const key = draftKeyFor({ userId: 7, studyId: 101, participantId: 3, formId: "hamd" });
    await saveDraft(key, 7, { answers: { q1: 1 } }, 1);
    await saveDraft(key, 7, { answers: { q1: 1, q2: 0 } }, 2);
    expect(await loadDraft(key)).toEqual({
      key,
      userId: 7,
      savedAt: 2,
      value: { answers: { q1: 1, q2: 0 } },
    });
    await removeDraft(key);
    expect(await loadDraft(key)).toBeUndefined();
  });

  it("is owned by the tab that claims it when no other tab holds it", async () => {
    // Ownership across tabs (Web Locks) is tested in Chromium by the end-to-end tests.
    const ownership = await claimDraft("k");
    expect(ownership.owned).toBe(true);
  });
});

describe("a delivered item and its draft", () => {
  it("removes the draft of an item once the outbox has delivered it", async () => {
    const { outboxDrainDependencies } = await import("./drain-under-lock.ts");
    const key = draftKeyFor({ userId: 7, studyId: 101, participantId: 3, formId: "cgi-s" });
    await saveDraft(key, 7, { answers: { q1: 4 } });
    const item = { ...makeOutboxItem(eventsWrite([], "CGI-S"), context), draftKey: key };
    await outboxDrainDependencies().onDelivered?.(item);
    expect(await loadDraft(key)).toBeUndefined();
  });
});

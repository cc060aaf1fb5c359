// @vitest-environment jsdom (the stored session in localStorage)
/**
 * The persisted query cache: marked queries are saved for the signed-in user (the last state of
 * a burst of changes included), and nothing of theirs is left after sign-out.
 */
import "fake-indexeddb/auto";
import { QueryClient } from "@tanstack/react-query";
import type { PersistedClient } from "@tanstack/query-persist-client-core";
import { createStore, get } from "idb-keyval";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clearStoredUser, setStoredUser } from "../auth/session-store.ts";
import { persistQueries } from "./query-persistence.ts";

const USER_ID = 41;
const cacheStore = createStore("clinro-query-cache", "clients");
const persisted = () => get<PersistedClient>(USER_ID, cacheStore);

let stop: (() => void) | undefined;

afterEach(async () => {
  clearStoredUser();
  await vi.waitFor(async () => expect(await persisted()).toBeUndefined());
  stop?.();
  stop = undefined;
});

function signedInClient() {
  setStoredUser({
    token: "t",
    id: USER_ID,
    username: "staff1@demo.test",
    exp: 4_102_444_800,
    is_temporary_password: false,
    last_active: Date.now(),
  });
  const queryClient = new QueryClient();
  const persistence = persistQueries(queryClient, "test");
  stop = persistence.stop;
  return { queryClient, restored: persistence.restored };
}

const marked = (key: string) => ({ queryKey: [key], meta: { persist: true } });

describe("the persisted query cache", () => {
  it("says when the signed-in user's saved queries are back in the cache", async () => {
    const first = signedInClient();
    await first.restored();
    first.queryClient.getQueryCache().build(first.queryClient, marked("participants")).setData({ count: 7 });
    await vi.waitFor(async () => expect((await persisted())?.clientState.queries).toHaveLength(1));
    stop?.();

    // A reload: a new cache, empty until the restore has put the device's copy back.
    const second = signedInClient();
    expect(second.queryClient.getQueryData(["participants"])).toBeUndefined();
    await second.restored();
    expect(second.queryClient.getQueryData(["participants"])).toEqual({ count: 7 });
  });

  it("saves the last state of a burst of changes, and only the marked queries", async () => {
    const { queryClient, restored } = signedInClient();
    // The restore (nothing stored yet) is done, as the router waits for it.
    await restored();
    for (let count = 1; count <= 50; count++) {
      queryClient.getQueryCache().build(queryClient, marked("participants")).setData({ count });
      queryClient.setQueryData(["not-marked"], { count });
    }
    await vi.waitFor(async () => {
      const saved = await persisted();
      const queries = saved?.clientState.queries ?? [];
      expect(queries.map((query) => query.queryKey)).toEqual([["participants"]]);
      expect(queries[0]?.state.data).toEqual({ count: 50 });
    });
  });

  it("leaves nothing of the user's after sign-out, though changes were still being saved", async () => {
    const { queryClient, restored } = signedInClient();
    await restored();
    for (let count = 1; count <= 20; count++) {
      queryClient.getQueryCache().build(queryClient, marked("participants")).setData({ count });
    }
    clearStoredUser();
    // Changes after sign-out are not saved either.
    queryClient.getQueryCache().build(queryClient, marked("participants")).setData({ count: 21 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await persisted()).toBeUndefined();
  });
});

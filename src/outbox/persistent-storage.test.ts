// @vitest-environment jsdom (the browser's navigator)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type FakeStorage = Partial<Pick<StorageManager, "persist" | "persisted" | "estimate">>;

function installStorage(storage: FakeStorage | undefined) {
  Object.defineProperty(navigator, "storage", { value: storage, configurable: true });
}

/** A fresh module each time: the "asked once" memory is per page load. */
async function freshModule() {
  vi.resetModules();
  return import("./persistent-storage.ts");
}

beforeEach(() => {
  installStorage(undefined);
});

afterEach(() => {
  installStorage(undefined);
});

describe("requestPersistentStorage", () => {
  it("asks the browser when storage is not persistent yet", async () => {
    const persist = vi.fn(async () => true);
    installStorage({ persist, persisted: async () => false });
    const { requestPersistentStorage } = await freshModule();
    await expect(requestPersistentStorage()).resolves.toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it("does not ask when storage is already persistent", async () => {
    const persist = vi.fn(async () => true);
    installStorage({ persist, persisted: async () => true });
    const { requestPersistentStorage } = await freshModule();
    await expect(requestPersistentStorage()).resolves.toBe(true);
    expect(persist).not.toHaveBeenCalled();
  });

  it("asks only once per page load, even when the browser said no", async () => {
    const persist = vi.fn(async () => false);
    installStorage({ persist, persisted: async () => false });
    const { requestPersistentStorage } = await freshModule();
    await expect(requestPersistentStorage()).resolves.toBe(false);
    await expect(requestPersistentStorage()).resolves.toBe(false);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it("answers false where the browser has no storage manager", async () => {
    const { requestPersistentStorage } = await freshModule();
    await expect(requestPersistentStorage()).resolves.toBe(false);
  });

  it("answers false when the request throws", async () => {
    installStorage({
      persist: async () => {
        throw new Error("not allowed");
      },
      persisted: async () => false,
    });
    const { requestPersistentStorage } = await freshModule();
    await expect(requestPersistentStorage()).resolves.toBe(false);
  });
});

describe("readStorageStatus", () => {
  it("reports whether storage is persistent and the quota used", async () => {
    installStorage({ persisted: async () => true, estimate: async () => ({ usage: 1_500, quota: 10_000 }) });
    const { readStorageStatus } = await freshModule();
    await expect(readStorageStatus()).resolves.toEqual({
      persisted: true,
      usageBytes: 1_500,
      quotaBytes: 10_000,
    });
  });

  it("reports nothing it cannot know where the browser has no storage manager", async () => {
    const { readStorageStatus } = await freshModule();
    await expect(readStorageStatus()).resolves.toEqual({
      persisted: undefined,
      usageBytes: undefined,
      quotaBytes: undefined,
    });
  });

  it("still reports persistence when the estimate fails", async () => {
    installStorage({
      persisted: async () => false,
      estimate: async () => {
        throw new Error("unavailable");
      },
    });
    const { readStorageStatus } = await freshModule();
    await expect(readStorageStatus()).resolves.toEqual({
      persisted: false,
      usageBytes: undefined,
      quotaBytes: undefined,
    });
  });
});

describe("whether the browser may clear this device's data", () => {
  it("may, unless storage is persistent or the app runs installed", async () => {
    const { mayBeCleared } = await freshModule();
    expect(mayBeCleared({ persisted: false }, false)).toBe(true);
    // WebKit has no persisted(): it cannot say, and Safari clears a tab's site after 7 idle days.
    expect(mayBeCleared({ persisted: undefined }, false)).toBe(true);
    expect(mayBeCleared({ persisted: true }, false)).toBe(false);
    expect(mayBeCleared({ persisted: undefined }, true)).toBe(false);
  });
});

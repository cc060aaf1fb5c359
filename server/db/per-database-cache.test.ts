import { describe, expect, it } from "vitest";
import type { Database } from "./client.ts";
import { perDatabaseCache } from "./per-database-cache.ts";

// Only their identity matters to the cache.
const first = {} as Database;
const second = {} as Database;

describe("perDatabaseCache", () => {
  it("keeps a key's value apart for each database", () => {
    const cache = perDatabaseCache<number, string>(10);
    cache.set(first, 1, "first's row 1");
    cache.set(second, 1, "second's row 1");
    expect(cache.get(first, 1)).toBe("first's row 1");
    expect(cache.get(second, 1)).toBe("second's row 1");
    expect(cache.get(first, 2)).toBeUndefined();
  });

  it("drops a database's entries when one more than its bound is kept, not the other's", () => {
    const cache = perDatabaseCache<number, string>(2);
    cache.set(second, 1, "kept");
    cache.set(first, 1, "a");
    cache.set(first, 2, "b");
    cache.set(first, 3, "c");
    expect([cache.get(first, 1), cache.get(first, 2), cache.get(first, 3)]).toEqual([
      undefined,
      undefined,
      "c",
    ]);
    expect(cache.get(second, 1)).toBe("kept");
  });
});

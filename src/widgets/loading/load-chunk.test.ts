import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkTimeoutError,
  isChunkLoadError,
  withChunkTimeout,
} from "./load-chunk.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("loading a script chunk (spec 01 section 9)", () => {
  it("waits 120 seconds", () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it("answers the module when it arrives in time", async () => {
    const load = withChunkTimeout(
      () => new Promise<string>((resolve) => setTimeout(() => resolve("module"), 119_000)),
    );
    const result = load();
    await vi.advanceTimersByTimeAsync(119_000);
    await expect(result).resolves.toBe("module");
  });

  it("fails with a ChunkTimeoutError after 120 seconds, not before", async () => {
    const load = withChunkTimeout(() => new Promise<string>(() => undefined));
    let settled: unknown = "pending";
    load().then(
      (value) => (settled = value),
      (error: unknown) => (settled = error),
    );
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(ChunkTimeoutError);
    expect(isChunkLoadError(settled)).toBe(true);
  });

  it("passes a failed load on at once", async () => {
    const failure = new TypeError("Failed to fetch dynamically imported module: /assets/page.js");
    const result = withChunkTimeout(() => Promise.reject(failure))();
    await expect(result).rejects.toBe(failure);
    expect(isChunkLoadError(failure)).toBe(true);
  });

  it("loads again on a retry", async () => {
    let calls = 0;
    const load = withChunkTimeout(() => {
      calls += 1;
      return calls === 1 ? new Promise<string>(() => undefined) : Promise.resolve("module");
    });
    const first = load();
    const firstOutcome = expect(first).rejects.toBeInstanceOf(ChunkTimeoutError);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    await firstOutcome;
    await expect(load()).resolves.toBe("module");
    expect(calls).toBe(2);
  });

  it("does not take other errors for chunk errors", () => {
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("text")).toBe(false);
  });
});

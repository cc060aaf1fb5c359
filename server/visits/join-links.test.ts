import { describe, expect, it } from "vitest";
import {
  hasEnded,
  hashJoinSecret,
  isInsideJoinWindow,
  joinLink,
  newJoinSecret,
  redactJoinSecret,
} from "./join-links.ts";

const at = (iso: string) => new Date(iso);
const scheduled = {
  visitTime: at("2026-11-22T10:00:00Z"),
  visitDuration: 45,
  isAdhoc: false,
  createdAt: at("2026-11-01T08:00:00Z"),
};
const adhoc = { ...scheduled, isAdhoc: true, createdAt: at("2026-11-22T09:00:00Z") };

describe("join link secrets", () => {
  it("are 32 random bytes in base64url, stored as their SHA-256", () => {
    const secret = newJoinSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(newJoinSecret()).not.toBe(secret);
    expect(hashJoinSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashJoinSecret(secret)).not.toContain(secret);
  });

  it("are kept out of logged URLs", () => {
    expect(redactJoinSecret("/control/visits/join/abcDEF_-123?x=1")).toBe(
      "/control/visits/join/[secret]?x=1",
    );
    expect(redactJoinSecret("/join/abcDEF_-123")).toBe("/join/[secret]");
    expect(redactJoinSecret("/studies/102/sites/1021/visits")).toBe("/studies/102/sites/1021/visits");
  });

  it("make links under the public URL", () => {
    expect(joinLink("https://portal.example/", "abc")).toBe("https://portal.example/join/abc");
    expect(joinLink("https://example.org/clinro", "abc")).toBe("https://example.org/clinro/join/abc");
  });
});

describe("the join window", () => {
  it("opens 30 minutes before a scheduled visit and closes at its end", () => {
    expect(isInsideJoinWindow(scheduled, at("2026-11-22T09:29:59Z"))).toBe(false);
    expect(isInsideJoinWindow(scheduled, at("2026-11-22T09:30:00Z"))).toBe(true);
    expect(isInsideJoinWindow(scheduled, at("2026-11-22T10:44:59Z"))).toBe(true);
    expect(isInsideJoinWindow(scheduled, at("2026-11-22T10:45:00Z"))).toBe(false);
  });

  it("is the 24 hours from an ad hoc visit's creation", () => {
    expect(isInsideJoinWindow(adhoc, at("2026-11-22T08:59:59Z"))).toBe(false);
    expect(isInsideJoinWindow(adhoc, at("2026-11-22T09:00:00Z"))).toBe(true);
    expect(isInsideJoinWindow(adhoc, at("2026-11-23T08:59:59Z"))).toBe(true);
    expect(isInsideJoinWindow(adhoc, at("2026-11-23T09:00:00Z"))).toBe(false);
  });

  it("a visit has ended at start plus duration; an ad hoc one never", () => {
    expect(hasEnded(scheduled, at("2026-11-22T10:44:59Z"))).toBe(false);
    expect(hasEnded(scheduled, at("2026-11-22T10:45:00Z"))).toBe(true);
    expect(hasEnded(adhoc, at("2027-01-01T00:00:00Z"))).toBe(false);
  });
});

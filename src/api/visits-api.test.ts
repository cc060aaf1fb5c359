import { describe, expect, it } from "vitest";
import { signalSocketUrl, visitKeys } from "./visits-api.ts";

describe("visits api", () => {
  it.each([
    {
      protocol: "https:",
      host: "portal.example.org",
      expected: "wss://portal.example.org/control/visits/signal",
    },
    { protocol: "http:", host: "localhost:8080", expected: "ws://localhost:8080/control/visits/signal" },
  ])(
    "signals over $expected from $protocol//$host (same origin, TLS when the page has it)",
    ({ expected, ...location }) => {
      expect(signalSocketUrl(location)).toBe(expected);
    },
  );

  it("keys every visits query under one root, so one invalidation refreshes them all", () => {
    expect(visitKeys.list(102, 1021).slice(0, 1)).toEqual(visitKeys.all);
    expect(visitKeys.join("secret").slice(0, 1)).toEqual(visitKeys.all);
  });
});

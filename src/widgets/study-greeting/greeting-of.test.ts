import { describe, expect, it } from "vitest";
import { greetingOf } from "./greeting-of.ts";

describe("greetingOf", () => {
  it("answers the study's clinician greeting, trimmed", () => {
    expect(greetingOf({ clinro: { greeting: "  Welcome to MDD-301 " } })).toBe("Welcome to MDD-301");
  });

  it("answers null without a greeting, an empty one or a config", () => {
    expect(greetingOf({})).toBeNull();
    expect(greetingOf({ clinro: {} })).toBeNull();
    expect(greetingOf({ clinro: { greeting: "   " } })).toBeNull();
    expect(greetingOf(undefined)).toBeNull();
  });
});

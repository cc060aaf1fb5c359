import { describe, expect, it } from "vitest";
import {
  COUNTDOWN_TICK_MS,
  DEFAULT_SESSION_TIMING,
  IDLE_DEBOUNCE_MS,
  IDLE_WARNING_S,
  SESSION_MAX_ALLOWED_S,
  SESSION_TIMEOUT_S,
  inactivityState,
  resolveSessionTiming,
  shouldRecordActivity,
  wasAwayTooLong,
} from "./session-timeout.ts";

/** A fixed clock: the user was last active at T0. */
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

describe("the constants of spec 01 section 9", () => {
  it("match the spec", () => {
    expect(SESSION_TIMEOUT_S).toBe(600);
    expect(IDLE_WARNING_S).toBe(60);
    expect(COUNTDOWN_TICK_MS).toBe(1000);
    expect(SESSION_MAX_ALLOWED_S).toBe(2_073_600);
    expect(IDLE_DEBOUNCE_MS).toBe(250);
    expect(DEFAULT_SESSION_TIMING).toEqual({ timeoutS: 600, warningS: 60 });
  });
});

describe("inactivityState with the default timing", () => {
  it.each([
    ["just active", 0, { phase: "active", nextCheckMs: 540_000 }],
    ["idle 5 minutes", 300, { phase: "active", nextCheckMs: 240_000 }],
    ["idle 539.5 s", 539.5, { phase: "active", nextCheckMs: 500 }],
    ["idle exactly 540 s: the modal shows from 60", 540, { phase: "warning", remainingS: 60 }],
    ["idle 540.2 s: still 60 whole seconds shown", 540.2, { phase: "warning", remainingS: 60 }],
    ["idle 541 s", 541, { phase: "warning", remainingS: 59 }],
    ["idle 599 s", 599, { phase: "warning", remainingS: 1 }],
    ["idle 599.9 s", 599.9, { phase: "warning", remainingS: 1 }],
    ["idle exactly 600 s: logged out at zero", 600, { phase: "expired" }],
    ["idle a day", 86_400, { phase: "expired" }],
  ])("%s", (_case, idleSeconds, expected) => {
    expect(inactivityState(T0, at(idleSeconds))).toEqual(expected);
  });

  it("counts down one second per tick", () => {
    const shown = [];
    for (let tick = 540; tick < 600; tick += COUNTDOWN_TICK_MS / 1000) {
      const state = inactivityState(T0, at(tick));
      if (state.phase === "warning") shown.push(state.remainingS);
    }
    expect(shown).toHaveLength(60);
    expect(shown[0]).toBe(60);
    expect(shown.at(-1)).toBe(1);
  });

  it("treats a last_active in the future (another tab's clock) as just active", () => {
    expect(inactivityState(at(30), T0)).toEqual({ phase: "active", nextCheckMs: 540_000 });
  });

  it("treats an unreadable last_active as expired", () => {
    expect(inactivityState(Number.NaN, T0)).toEqual({ phase: "expired" });
  });

  it("activity in another tab (a newer shared last_active) closes the modal", () => {
    expect(inactivityState(T0, at(550)).phase).toBe("warning");
    expect(inactivityState(at(549), at(550))).toEqual({ phase: "active", nextCheckMs: 539_000 });
  });
});

describe("inactivityState with a shortened timing", () => {
  it.each([
    [0, { phase: "active", nextCheckMs: 2000 }],
    [2, { phase: "warning", remainingS: 3 }],
    [4.5, { phase: "warning", remainingS: 1 }],
    [5, { phase: "expired" }],
  ])("idle %s s of a 5 s timeout with a 3 s warning", (idleSeconds, expected) => {
    expect(inactivityState(T0, at(idleSeconds), { timeoutS: 5, warningS: 3 })).toEqual(expected);
  });
  it("never waits longer than the maximum allowed", () => {
    const timing = { timeoutS: SESSION_MAX_ALLOWED_S * 2, warningS: 60 };
    expect(inactivityState(T0, at(SESSION_MAX_ALLOWED_S), timing)).toEqual({ phase: "expired" });
  });
});

describe("wasAwayTooLong: a reload after being away", () => {
  it.each([
    ["away 10 s", 10, false],
    ["away 599 s", 599, false],
    ["away exactly the limit", 600, true],
    ["away a week", 7 * 86_400, true],
  ])("%s: %s", (_case, awaySeconds, expected) => {
    expect(wasAwayTooLong(T0, at(awaySeconds))).toBe(expected);
  });
  it("a user without last_active counts as away too long", () => {
    expect(wasAwayTooLong(undefined, T0)).toBe(true);
  });
});

describe("resolveSessionTiming: the test-only override may only shorten", () => {
  it.each([
    ["no override", null, { timeoutS: 600, warningS: 60 }],
    ["a shorter timeout and warning", '{"timeoutS":8,"warningS":5}', { timeoutS: 8, warningS: 5 }],
    ["a longer timeout (ignored)", '{"timeoutS":86400,"warningS":30}', { timeoutS: 600, warningS: 30 }],
    ["a longer warning (capped at 60)", '{"timeoutS":300,"warningS":120}', { timeoutS: 300, warningS: 60 }],
    ["a warning longer than the timeout", '{"timeoutS":4,"warningS":10}', { timeoutS: 4, warningS: 4 }],
    ["zero", '{"timeoutS":0,"warningS":0}', { timeoutS: 600, warningS: 60 }],
    ["negative values", '{"timeoutS":-5,"warningS":-1}', { timeoutS: 600, warningS: 60 }],
    ["fractions", '{"timeoutS":2.5,"warningS":1.5}', { timeoutS: 600, warningS: 60 }],
    ["strings", '{"timeoutS":"5","warningS":"3"}', { timeoutS: 600, warningS: 60 }],
    ["not JSON", "five", { timeoutS: 600, warningS: 60 }],
    ["JSON null", "null", { timeoutS: 600, warningS: 60 }],
  ])("%s", (_case, raw, expected) => {
    expect(resolveSessionTiming(raw)).toEqual(expected);
  });
});

describe("shouldRecordActivity: the 250 ms idle debounce", () => {
  it.each([
    [0, 100, false],
    [0, 249, false],
    [0, 250, true],
    [0, 1000, true],
    [1000, 500, true],
  ])("last recorded at %s, activity at %s: %s", (last, now, expected) => {
    expect(shouldRecordActivity(last, now)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { linkOutcome, linkTokenUser } from "./link-token.ts";

function base64url(value: unknown) {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
/** An unsigned test JWT: jwt-decode reads the payload without checking the signature. */
const jwt = (payload: unknown) => `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url(payload)}.c2ln`;
const good = jwt({ id: 9, username: "pending@demo.test", purpose: "password_setup", exp: 4_102_444_800 });

describe("linkTokenUser: the payload needs username and id", () => {
  it.each([
    ["both", good, "pending@demo.test"],
    ["no username", jwt({ id: 9 }), undefined],
    ["an empty username", jwt({ id: 9, username: "" }), undefined],
    ["no id", jwt({ username: "a@b.test" }), undefined],
    ["an id that is a string", jwt({ id: "9", username: "a@b.test" }), undefined],
    ["not a JWT", "not-a-token", undefined],
  ])("%s", (_case, token, expected) => {
    expect(linkTokenUser(token)).toBe(expected);
  });
});

describe("linkOutcome", () => {
  it.each([
    ["activate, no password yet", "activate", false, { kind: "set-password", username: "pending@demo.test" }],
    ["activate, password already set", "activate", true, { kind: "already-set" }],
    ["reset, password already set", "reset", true, { kind: "set-password", username: "pending@demo.test" }],
    ["reset, no password yet", "reset", false, { kind: "set-password", username: "pending@demo.test" }],
  ] as const)("%s", (_case, link, hasPassword, expected) => {
    expect(linkOutcome(link, { token: good, hasPassword })).toEqual(expected);
  });
  it("sends a token without username or id to /unauthorized, even when already set", () => {
    expect(linkOutcome("activate", { token: jwt({ id: 9 }), hasPassword: true })).toEqual({
      kind: "unauthorized",
    });
  });
});

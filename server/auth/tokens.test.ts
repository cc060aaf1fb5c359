/**
 * Session token verification, and the signer's memory of tokens it verified lately: what it
 * remembers must never accept a token that jose would refuse.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTokenSigner } from "./tokens.ts";

const TTL_SECONDS = 60;
const user = { id: 7, username: "staff1@demo.test", tokenVersion: 3 };

function signer(secret = "a-test-secret-that-is-long-enough-for-hs256") {
  return createTokenSigner(new TextEncoder().encode(secret), TTL_SECONDS);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("session tokens", () => {
  it("answers a signed token's claims, every time it is shown", async () => {
    const tokens = signer();
    const token = await tokens.sign(user);
    for (let call = 0; call < 3; call++) {
      expect(await tokens.verify(token)).toMatchObject({ id: 7, username: "staff1@demo.test", ver: 3 });
    }
  });

  it("refuses a token once it has expired, though it verified before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const tokens = signer();
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + (TTL_SECONDS - 2) * 1000);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + 3_000);
    expect(await tokens.verify(token)).toBeUndefined();
    // And again: an expired token is not let back in by a second showing.
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it("refuses a tampered token, and one signed with another secret, after the genuine one verified", async () => {
    const tokens = signer();
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).toBeDefined();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const otherUser = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), id: 8 }),
    ).toString("base64url");
    expect(await tokens.verify(`${header}.${otherUser}.${signature}`)).toBeUndefined();
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "AB" : "AA"}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeUndefined();
    expect(
      await tokens.verify(await signer("another-secret-that-is-long-enough-too").sign(user)),
    ).toBeUndefined();
  });

  it("never takes an emailed password-setup link for a session", async () => {
    const tokens = signer();
    const link = await tokens.signPasswordSetup(user, new Date(Date.now() + 60_000));
    expect(await tokens.verify(link)).toBeUndefined();
    expect(await tokens.verify(link)).toBeUndefined();
  });

  it("still verifies the first of more tokens than it remembers", async () => {
    const tokens = signer();
    const many = await Promise.all(
      Array.from({ length: 1_050 }, (_, index) => tokens.sign({ ...user, id: index + 1 })),
    );
    for (const token of many) expect(await tokens.verify(token)).toBeDefined();
    expect(await tokens.verify(many[0]!)).toMatchObject({ id: 1 });
    expect(await tokens.verify(many[1_049]!)).toMatchObject({ id: 1_050 });
  });
});

import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { SigningKeyResponse } from "../../core/contracts/signing-key.ts";
import {
  checkSigningPassword,
  checkVerifier,
  encryptToSigningKey,
  loadSigningKey,
  loadVerifier,
  makeVerifier,
  prepareOfflineSigning,
  saveSigningKey,
  saveVerifier,
  VERIFIER_ITERATIONS,
} from "./signing-verifier.ts";

/** Fewer iterations where the count is not what is tested: the machine is shared. */
const FAST = 1000;

async function serverKeyPair() {
  const pair = await crypto.subtle.generateKey(
    { name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["encrypt", "decrypt"],
  );
  const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const key: SigningKeyResponse = {
    kid: "k1",
    jwk: { kty: "RSA", n: jwk.n!, e: jwk.e!, alg: "RSA-OAEP-256", use: "enc", kid: "k1" },
  };
  return { key, privateKey: pair.privateKey };
}

async function decrypt(privateKey: CryptoKey, base64: string) {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const plain = await crypto.subtle.decrypt({ name: "RSA-OAEP" }, privateKey, bytes);
  return new TextDecoder().decode(plain);
}

describe("the password verifier", () => {
  it("is PBKDF2-SHA-256 with 310,000 iterations and a 16-byte salt by default, and holds no password", async () => {
    const verifier = await makeVerifier("DemoPass1!");
    expect(verifier.algorithm).toBe("PBKDF2-SHA-256");
    expect(verifier.iterations).toBe(VERIFIER_ITERATIONS);
    expect(VERIFIER_ITERATIONS).toBe(310_000);
    expect(atob(verifier.salt)).toHaveLength(16);
    expect(atob(verifier.hash)).toHaveLength(32);
    expect(JSON.stringify(verifier)).not.toContain("DemoPass1!");
    expect(await checkVerifier("DemoPass1!", verifier)).toBe(true);
  });

  it.each([
    ["DemoPass1!", true],
    ["demopass1!", false],
    ["DemoPass1", false],
    ["DemoPass1! ", false],
    ["", false],
  ])("checks %j: %s", async (typed, expected) => {
    const verifier = await makeVerifier("DemoPass1!", FAST);
    expect(await checkVerifier(typed, verifier)).toBe(expected);
  });

  it("salts each verifier: the same password makes different hashes", async () => {
    const [a, b] = await Promise.all([makeVerifier("same", FAST), makeVerifier("same", FAST)]);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
  });

  it("accents and other Unicode are checked as UTF-8", async () => {
    const verifier = await makeVerifier("Contraseña1!", FAST);
    expect(await checkVerifier("Contraseña1!", verifier)).toBe(true);
    expect(await checkVerifier("Contrasena1!", verifier)).toBe(false);
  });
});

describe("the encryption to the server's signing key", () => {
  it("is RSA-OAEP-256: the server's private key reads the password back; each ciphertext differs", async () => {
    const { key, privateKey } = await serverKeyPair();
    const first = await encryptToSigningKey("Contraseña1!", key);
    const second = await encryptToSigningKey("Contraseña1!", key);
    expect(first).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(atob(first)).toHaveLength(256);
    expect(first).not.toBe(second);
    expect(await decrypt(privateKey, first)).toBe("Contraseña1!");
    expect(await decrypt(privateKey, second)).toBe("Contraseña1!");
  });
});

describe("checkSigningPassword, the check at a staff signature", () => {
  it("says unavailable when this device has no key and the network cannot give one", async () => {
    expect(await checkSigningPassword(901, "x")).toEqual({ ok: false, reason: "unavailable" });
    await saveVerifier(901, await makeVerifier("x", FAST));
    if (await loadSigningKey()) throw new Error("the key store should start empty");
    expect(await checkSigningPassword(901, "x")).toEqual({ ok: false, reason: "unavailable" });
    expect(
      await checkSigningPassword(901, "x", () => Promise.reject(new TypeError("Failed to fetch"))),
    ).toEqual({ ok: false, reason: "unavailable" });
  });

  it("fetches and keeps a missing key when online, and leaves a device without a verifier to the server's check", async () => {
    const { key, privateKey } = await serverKeyPair();
    let fetched = 0;
    const fetchKey = () => {
      fetched += 1;
      return Promise.resolve(key);
    };
    // No verifier for user 907: the password is not checked here, only encrypted for the server.
    const signed = await checkSigningPassword(907, "whatever the server decides", fetchKey);
    if (!signed.ok) throw new Error("signing was refused");
    expect(await decrypt(privateKey, signed.passwordCiphertext)).toBe("whatever the server decides");
    expect((await loadSigningKey())?.kid).toBe(key.kid);
    // The key is kept: the next signature needs no network.
    await checkSigningPassword(907, "again", fetchKey);
    expect(fetched).toBe(1);
  });

  it("refuses a wrong password without encrypting anything, and encrypts the right one", async () => {
    const { key, privateKey } = await serverKeyPair();
    await saveSigningKey(key);
    await saveVerifier(902, await makeVerifier("DemoPass1!", FAST));
    expect(await checkSigningPassword(902, "wrong")).toEqual({ ok: false, reason: "wrong" });
    const right = await checkSigningPassword(902, "DemoPass1!");
    if (!right.ok) throw new Error("the right password was refused");
    expect(right.kid).toBe("k1");
    expect(await decrypt(privateKey, right.passwordCiphertext)).toBe("DemoPass1!");
  });

  it("keeps each user's verifier apart", async () => {
    await saveVerifier(903, await makeVerifier("first", FAST));
    await saveVerifier(904, await makeVerifier("second", FAST));
    expect(await checkVerifier("first", (await loadVerifier(903))!)).toBe(true);
    expect(await checkVerifier("first", (await loadVerifier(904))!)).toBe(false);
  });
});

describe("prepareOfflineSigning at sign-in", () => {
  it("stores the verifier and the key", async () => {
    const { key } = await serverKeyPair();
    await prepareOfflineSigning(905, "DemoPass1!", () => Promise.resolve({ ...key, kid: "k2" }));
    expect(await checkVerifier("DemoPass1!", (await loadVerifier(905))!)).toBe(true);
    expect((await loadSigningKey())?.kid).toBe("k2");
  });

  it("still stores the verifier when the key cannot be fetched, and does not throw", async () => {
    const error = console.error;
    console.error = () => {};
    try {
      await prepareOfflineSigning(906, "pw", () => Promise.reject(new Error("offline")));
    } finally {
      console.error = error;
    }
    expect(await checkVerifier("pw", (await loadVerifier(906))!)).toBe(true);
  });
});

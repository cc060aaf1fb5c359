/**
 * Part 11 on the client (21 CFR 11.200): a clinician or witness
 * signing a consent types their password again at the signature, also offline.
 *
 * State it owns (IndexedDB, database "clinro-signing"):
 * - per user, a verifier of the password made at sign-in: PBKDF2-SHA-256 with a random salt and
 *   310,000 iterations (WebCrypto). The password itself is never stored; the verifier lets the
 *   tablet refuse a mistyped password without the network;
 * - the server's signing key (RSA-OAEP-256 public JWK), fetched at sign-in and kept: the typed
 *   password is encrypted to it, and only that ciphertext waits in the outbox. The server
 *   decrypts it and checks the password against the account again when the consent arrives;
 * - per user, how many signing passwords in a row were refused since the last accepted one or
 *   sign-in (signing-attempt.ts caps them): kept here, not in memory, so that a reload does not
 *   give more tries.
 */
import { createStore, del, get, set, update } from "idb-keyval";
import type { SigningKeyResponse } from "../../core/contracts/signing-key.ts";

/** OWASP's figure for PBKDF2-HMAC-SHA-256 (2023). */
export const VERIFIER_ITERATIONS = 310_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

export type PasswordVerifier = {
  algorithm: "PBKDF2-SHA-256";
  iterations: number;
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
};

const store = createStore("clinro-signing", "keys");
const verifierKey = (userId: number) => `verifier:${userId}`;
const SIGNING_KEY = "signing-key";
const refusalsKey = (userId: number) => `refusals:${userId}`;

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function makeVerifier(
  password: string,
  iterations = VERIFIER_ITERATIONS,
): Promise<PasswordVerifier> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return { algorithm: "PBKDF2-SHA-256", iterations, salt: toBase64(salt), hash: toBase64(hash) };
}

/** Compares every byte whatever the first difference: the time says nothing about the password. */
function sameBytes(a: Uint8Array, b: Uint8Array) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}

export async function checkVerifier(password: string, verifier: PasswordVerifier): Promise<boolean> {
  const hash = await derive(password, fromBase64(verifier.salt), verifier.iterations);
  return sameBytes(hash, fromBase64(verifier.hash));
}

export function saveVerifier(userId: number, verifier: PasswordVerifier) {
  return set(verifierKey(userId), verifier, store);
}

export function loadVerifier(userId: number) {
  return get<PasswordVerifier>(verifierKey(userId), store);
}

/** Refused signing passwords of this user in a row, on this device. */
export async function signingRefusalCount(userId: number): Promise<number> {
  return (await get<number>(refusalsKey(userId), store)) ?? 0;
}

/** Counts one more refused signing password (in one transaction); answers the new count. */
export async function countSigningRefusal(userId: number): Promise<number> {
  let count = 0;
  await update<number>(
    refusalsKey(userId),
    (current) => {
      count = (current ?? 0) + 1;
      return count;
    },
    store,
  );
  return count;
}

export function clearSigningRefusals(userId: number) {
  return del(refusalsKey(userId), store);
}

export function saveSigningKey(key: SigningKeyResponse) {
  return set(SIGNING_KEY, key, store);
}

export function loadSigningKey() {
  return get<SigningKeyResponse>(SIGNING_KEY, store);
}

/** base64 of RSA-OAEP (SHA-256) of the UTF-8 password, to the server's signing key. */
export async function encryptToSigningKey(password: string, key: SigningKeyResponse): Promise<string> {
  const publicKey = await crypto.subtle.importKey(
    "jwk",
    { kty: key.jwk.kty, n: key.jwk.n, e: key.jwk.e, alg: "RSA-OAEP-256", ext: true },
    { name: "RSA-OAEP", hash: "SHA-256" },
    false,
    ["encrypt"],
  );
  const ciphertext = await crypto.subtle.encrypt(
    { name: "RSA-OAEP" },
    publicKey,
    new TextEncoder().encode(password),
  );
  return toBase64(new Uint8Array(ciphertext));
}

/** The kept signing key, else the one the network gives now (then kept); undefined without either. */
export async function deviceSigningKey(
  fetchKey?: () => Promise<SigningKeyResponse>,
): Promise<SigningKeyResponse | undefined> {
  const kept = await loadSigningKey();
  if (kept || !fetchKey) return kept;
  try {
    const fetched = await fetchKey();
    await saveSigningKey(fetched);
    return fetched;
  } catch {
    return undefined;
  }
}

export type SigningCheck =
  | { ok: true; kid: string; passwordCiphertext: string }
  /** wrong: the password does not match; unavailable: no signing key on this device, and the
   * network could not give one. */
  | { ok: false; reason: "wrong" | "unavailable" };

/**
 * The check at a staff signature: the typed password against this device's verifier, then its
 * encryption to the kept signing key. A wrong password signs nothing.
 *
 * What the device lacks it makes up for when it can: without a kept key, the key is fetched now
 * (`fetchKey`, when online) and kept; without a verifier (the sign-in could not make one), the
 * password goes on unchecked here, since the server checks every signature's password on
 * arrival and refuses (and audits) a wrong one. Only a missing key that cannot be fetched stops
 * the signature: the password must never travel in the clear.
 */
export async function checkSigningPassword(
  userId: number,
  password: string,
  fetchKey?: () => Promise<SigningKeyResponse>,
): Promise<SigningCheck> {
  const verifier = await loadVerifier(userId);
  const key = await deviceSigningKey(fetchKey);
  if (!key) return { ok: false, reason: "unavailable" };
  if (verifier && !(await checkVerifier(password, verifier))) return { ok: false, reason: "wrong" };
  return { ok: true, kid: key.kid, passwordCiphertext: await encryptToSigningKey(password, key) };
}

/**
 * At sign-in (and after a password change): the verifier of the password just proven to the
 * server, and the signing key when the network gives it. Failures are swallowed: signing in must
 * not fail for them; the signature step then says signing is not available on this device.
 */
export async function prepareOfflineSigning(
  userId: number,
  password: string,
  fetchKey: () => Promise<SigningKeyResponse>,
): Promise<void> {
  await Promise.all([
    // The password was just proven to the server: the signature's tries start again.
    clearSigningRefusals(userId).catch((error: unknown) =>
      console.error("The signing refusals could not be cleared", error),
    ),
    makeVerifier(password)
      .then((verifier) => saveVerifier(userId, verifier))
      .catch((error: unknown) => console.error("The signing verifier could not be made", error)),
    fetchKey()
      .then(saveSigningKey)
      .catch((error: unknown) => console.error("The signing key could not be fetched", error)),
  ]);
}

/**
 * Password hashing with argon2id. Verifying against a fixed dummy hash when the user does not
 * exist keeps the answer time the same for unknown and known usernames.
 */
import { onPasswordThread } from "./password-threads.ts";

// Algorithm.Argon2id is a const enum, which isolated modules cannot inline.
const ARGON2ID = 2;
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return onPasswordThread<string>({ op: "hash", password, options: HASH_OPTIONS });
}

function verify(hashed: string, password: string) {
  return onPasswordThread<boolean>({ op: "verify", hashed, password });
}

/**
 * The password hash of an account that has not set a password yet (invited, not activated):
 * no password verifies against it.
 */
export const UNUSABLE_PASSWORD_HASH = "!no-password-set";

export function hasUsablePassword(storedHash: string): boolean {
  return storedHash.startsWith("$argon2");
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no stored hash, or an unusable or damaged one, it still spends the
 * same work, then says no. A hashing thread that fails is an error, never a "wrong password".
 */
export async function verifyPassword(storedHash: string | undefined, password: string) {
  if (storedHash === undefined || !hasUsablePassword(storedHash)) {
    dummyHash ??= hashPassword("not-a-real-password-used-for-timing-only");
    await verify(await dummyHash, password);
    return false;
  }
  return verify(storedHash, password);
}

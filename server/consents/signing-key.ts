/**
 * The server's signing key pair (RSA-OAEP-256, 3072 bits). Clients encrypt the signer's password
 * to its public key, so a consent signed offline carries the password to the server without the
 * tablet keeping it in clear. The pair is made once, by the first server that needs it, and kept
 * in signing_keys: every server of one PostgreSQL decrypts with the same key. Two servers racing
 * to make it both insert under the same fixed kid; the loser's insert does nothing and it reads
 * the winner's row.
 *
 * State: the row in signing_keys, and a per-database cache of the parsed key in this process.
 */
import { constants, createPrivateKey, generateKeyPair, privateDecrypt, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { asc } from "drizzle-orm";
import type { SigningKeyResponse, SigningPublicJwk } from "../../core/contracts/signing-key.ts";
import type { Database } from "../db/client.ts";
import { signingKeys } from "../db/schema.ts";

const generate = promisify(generateKeyPair);
const MODULUS_BITS = 3072;
/** One key per database; a rotation would add rows with other kids. */
const FIRST_KID = "clinro-signing-1";

export type SigningKey = { kid: string; jwk: SigningPublicJwk; privateKey: KeyObject };

const cache = new WeakMap<Database, Promise<SigningKey>>();

/** The database's signing key, made and stored on first use. */
export function signingKeyOf(db: Database): Promise<SigningKey> {
  let pending = cache.get(db);
  if (!pending) {
    pending = loadOrCreate(db);
    cache.set(db, pending);
    // A failure (database down) is not kept: the next call tries again.
    pending.catch(() => cache.delete(db));
  }
  return pending;
}

async function loadOrCreate(db: Database): Promise<SigningKey> {
  const existing = await readFirst(db);
  if (existing) return existing;
  const { publicKey, privateKey } = await generate("rsa", { modulusLength: MODULUS_BITS });
  const exported = publicKey.export({ format: "jwk" });
  const jwk: SigningPublicJwk = {
    kty: "RSA",
    n: String(exported.n),
    e: String(exported.e),
    alg: "RSA-OAEP-256",
    use: "enc",
    kid: FIRST_KID,
  };
  await db
    .insert(signingKeys)
    .values({
      kid: FIRST_KID,
      publicJwk: jwk,
      privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    })
    .onConflictDoNothing();
  const stored = await readFirst(db);
  if (!stored) throw new Error("The signing key could not be stored.");
  return stored;
}

async function readFirst(db: Database): Promise<SigningKey | undefined> {
  const [row] = await db.select().from(signingKeys).orderBy(asc(signingKeys.createdAt)).limit(1);
  if (!row) return undefined;
  return {
    kid: row.kid,
    jwk: row.publicJwk as SigningPublicJwk,
    privateKey: createPrivateKey(row.privateKeyPem),
  };
}

/** The public half, as GET /control/v2/signing-key answers it. */
export async function publicSigningKey(db: Database): Promise<SigningKeyResponse> {
  const key = await signingKeyOf(db);
  return { kid: key.kid, jwk: key.jwk };
}

/**
 * The password inside a ciphertext (base64 of RSA-OAEP with SHA-256), or undefined when the kid
 * is not the server's or the ciphertext does not decrypt: both mean the check fails.
 */
export async function decryptSigningPassword(
  db: Database,
  kid: string,
  ciphertextBase64: string,
): Promise<string | undefined> {
  const key = await signingKeyOf(db);
  if (kid !== key.kid) return undefined;
  try {
    const plain = privateDecrypt(
      { key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(ciphertextBase64, "base64"),
    );
    return plain.toString("utf8");
  } catch {
    return undefined;
  }
}

/**
 * Signing and verifying session tokens (JWT, HS256 only). The signing secret comes from
 * JWT_SECRET, or is generated once and kept in the data directory.
 */
import { createSecretKey, randomBytes, randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { jwtVerify, SignJWT } from "jose";
import { makePrivateDir } from "../private-dir.ts";

const ALGORITHM = "HS256";

export type SessionClaims = {
  id: number;
  username: string;
  /** The user's token version when signed: a password change makes older tokens invalid. */
  ver: number;
  jti: string;
  exp: number;
};

/**
 * What verify_token answers for an emailed link: the user it is for, until the link expires.
 * It names its purpose and has no version or id (jti), so it is never accepted as a session.
 */
export type PasswordSetupClaims = { id: number; username: string; purpose: "password_setup"; exp: number };

export type TokenSigner = {
  sign: (user: { id: number; username: string; tokenVersion: number }) => Promise<string>;
  signPasswordSetup: (user: { id: number; username: string }, expiresAt: Date) => Promise<string>;
  /** Returns the claims, or undefined for a bad, tampered or expired token. */
  verify: (token: string) => Promise<SessionClaims | undefined>;
};

/**
 * Session tokens verified lately, by their exact text: a signed-in clinician sends the same token
 * with every call, and jose's verification (WebCrypto's HMAC, a thread-pool round trip) costs
 * about half a millisecond of each, as much as a selective search. Only tokens that verified are
 * kept, so unsigned text cannot fill it; the expiry is checked again at every use. Revocation and
 * password changes are the database's part (server/auth/authenticate.ts), asked at every call.
 */
const VERIFIED_TOKENS_KEPT = 1_000;

export function createTokenSigner(secretBytes: Uint8Array, ttlSeconds: number): TokenSigner {
  // One key object for the process: given the bytes, jose imports a key on every call (about a
  // tenth of a millisecond of each authenticated request).
  const secret = createSecretKey(secretBytes);
  const verified = new Map<string, SessionClaims>();

  async function verifiedBySignature(token: string): Promise<SessionClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: [ALGORITHM] });
      const { id, username, ver, jti, exp } = payload;
      if (
        payload.purpose !== undefined ||
        typeof id !== "number" ||
        typeof username !== "string" ||
        typeof ver !== "number" ||
        typeof jti !== "string" ||
        typeof exp !== "number"
      ) {
        return undefined;
      }
      // Frozen: the same object answers every later call with this token.
      return Object.freeze({ id, username, ver, jti, exp });
    } catch {
      return undefined;
    }
  }

  return {
    sign: (user) =>
      new SignJWT({ id: user.id, username: user.username, ver: user.tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(secret),
    signPasswordSetup: (user, expiresAt) =>
      new SignJWT({ id: user.id, username: user.username, purpose: "password_setup" })
        .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(secret),
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose's rule: a token is expired from its exp second on.
        if (known.exp > Math.floor(Date.now() / 1000)) return known;
        verified.delete(token);
        return undefined;
      }
      const claims = await verifiedBySignature(token);
      if (!claims) return undefined;
      // The oldest verified first out: a Map keeps its insertion order.
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return claims;
    },
  };
}

/** JWT_SECRET when given; otherwise a secret kept in DATA_DIR/jwt-secret, made on first start. */
export async function loadSigningSecret(configured: string | undefined, dataDir: string) {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, "jwt-secret");
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 32) return new TextEncoder().encode(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const generated = randomBytes(48).toString("base64url");
  await makePrivateDir(dataDir);
  await writeFile(file, `${generated}\n`, { mode: 0o600, flag: "wx" }).catch(async (error) => {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  return new TextEncoder().encode((await readFile(file, "utf8")).trim());
}

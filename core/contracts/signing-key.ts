/**
 * GET /control/v2/signing-key: the server's public key that a signing password is encrypted to
 * (Part 11 re-authentication at a signature, online or offline). Its own module because the
 * sign-in fetches it: importing it from consent-calls.ts would put every consent schema (and the
 * survey definition's) in the app's first download.
 */
import * as z from "zod/mini";

/** The RSA-OAEP-256 public key as a JWK (importable with WebCrypto's importKey("jwk")). */
export const signingPublicJwk = z.looseObject({
  kty: z.literal("RSA"),
  n: z.string().check(z.minLength(1)),
  e: z.string().check(z.minLength(1)),
  alg: z.literal("RSA-OAEP-256"),
  use: z.literal("enc"),
  kid: z.string().check(z.minLength(1)),
});
export type SigningPublicJwk = z.infer<typeof signingPublicJwk>;

export const signingKeyResponse = z.object({ kid: z.string().check(z.minLength(1)), jwk: signingPublicJwk });
export type SigningKeyResponse = z.infer<typeof signingKeyResponse>;

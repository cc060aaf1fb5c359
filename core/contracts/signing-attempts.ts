/**
 * A staff signer's password re-entry at a signature (21 CFR 11.200), tried online and offline,
 * and what happens to the tries that are refused (11.300(d): attempts at unauthorised use are
 * detected and reported). Online the server checks each try and records a refused one; offline
 * the device checks it against its verifier and reports each refused try when it is online again.
 * Either way five refused tries in a row end the session, as the inactivity lock does.
 */
import * as z from "zod/mini";
import { rowId, isoMoment } from "./input-bounds.ts";
import { USER_SIGNER_ROLES } from "./roles.ts";

import { SIGNING_PASSWORD_INVALID } from "./signing-codes.ts";

export {
  MAX_SIGNING_ATTEMPTS,
  SIGNING_ATTEMPTS_EXHAUSTED,
  SIGNING_PASSWORD_INVALID,
} from "./signing-codes.ts";

/** The signing key's kid (GET /control/v2/signing-key). */
export const signingKid = z
  .string()
  .check(z.minLength(1, "kid must not be empty"), z.maxLength(200, "kid is too long"));

/** base64 of RSA-OAEP-256 (SHA-256) of the UTF-8 password, to the signing key. */
export const passwordCiphertext = z
  .string()
  .check(
    z.minLength(1, "password_ciphertext must not be empty"),
    z.maxLength(4096, "password_ciphertext is too long"),
    z.regex(/^[A-Za-z0-9+/]+={0,2}$/, "password_ciphertext must be base64"),
  );

/** What the signer was signing: their role, and the consent and participant when the server knows them. */
const signingContext = {
  signer_role: z.enum(USER_SIGNER_ROLES),
  consent_id: z.optional(rowId("consent_id")),
  participant_id: z.optional(rowId("participant_id")),
};

const bothOrNeither = (value: { consent_id?: number | undefined; participant_id?: number | undefined }) =>
  (value.consent_id === undefined) === (value.participant_id === undefined);
const BOTH_OR_NEITHER = "consent_id and participant_id go together: give both or neither";

// POST /control/v2/signing-password/check
export const signingPasswordCheckBody = z
  .object({
    kid: signingKid,
    password_ciphertext: passwordCiphertext,
    ...signingContext,
  })
  .check(z.refine(bothOrNeither, { message: BOTH_OR_NEITHER, path: ["participant_id"] }));
export type SigningPasswordCheckBody = z.infer<typeof signingPasswordCheckBody>;

/** 422 signing_password_invalid: a refused try, recorded; how many the session has left. */
export const signingPasswordRefused = z.object({
  message: z.string(),
  code: z.literal(SIGNING_PASSWORD_INVALID),
  attempts_left: z.number().check(z.int(), z.minimum(1)),
});
export type SigningPasswordRefused = z.infer<typeof signingPasswordRefused>;

// POST /control/v2/signing-password/refusals (Idempotency-Key; sent by the outbox)
export const signingRefusalReport = z
  .object({
    /** When the device refused the password, with its offset. */
    attempted_at: isoMoment(),
    ...signingContext,
  })
  .check(z.refine(bothOrNeither, { message: BOTH_OR_NEITHER, path: ["participant_id"] }));
export type SigningRefusalReport = z.infer<typeof signingRefusalReport>;

export const signingRefusalRecorded = z.object({ recorded: z.literal(true) });

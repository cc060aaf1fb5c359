/**
 * The signing password's checks (core/contracts/signing-attempts.ts): the online check of one
 * try, and the report of a try the device refused offline.
 */
import { errorBody } from "../errors.ts";
import { defineCall } from "../http/define-call.ts";
import {
  signingPasswordCheckBody,
  signingPasswordRefused,
  signingRefusalRecorded,
  signingRefusalReport,
} from "../signing-attempts.ts";
import { IDEMPOTENT_REFUSALS, REFUSALS } from "./common-answers.ts";

export const checkSigningPasswordCall = defineCall({
  operationId: "checkSigningPassword",
  tag: "Consents",
  // The consent and participant signed for, when named; else only the caller's own session.
  scope: "participant",
  method: "POST",
  path: "/control/v2/signing-password/check",
  summary:
    "Check a signer's password at a signature, encrypted to the signing key; a refused try is recorded, and the fifth in a row ends the session",
  body: signingPasswordCheckBody,
  answers: {
    204: { empty: true, description: "The password is the signer's" },
    ...REFUSALS,
    404: errorBody,
    // Not 401/403 (those sign the client out): the try was refused and recorded.
    422: signingPasswordRefused,
    // signing_attempts_exhausted: this try used up the session's attempts; the token is revoked.
    429: errorBody,
  },
});

export const reportSigningRefusalCall = defineCall({
  operationId: "reportSigningRefusal",
  tag: "Consents",
  scope: "participant",
  method: "POST",
  path: "/control/v2/signing-password/refusals",
  summary: "Record a signing password that a device refused offline (one audit row per try)",
  body: signingRefusalReport,
  idempotent: true,
  answers: { 200: signingRefusalRecorded, ...IDEMPOTENT_REFUSALS, 404: errorBody },
});

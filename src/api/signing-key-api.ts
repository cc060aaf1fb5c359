/**
 * The server's signing key (GET /control/v2/signing-key), fetched at sign-in and kept on the
 * device so a signature made offline can carry its password encrypted (src/auth/signing-verifier.ts).
 */
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import { request } from "./request.ts";

export function fetchSigningKey(signal?: AbortSignal) {
  return request({
    // signingKeyCall's path, written out: its declaration (contracts/calls/consent-calls.ts)
    // brings every consent schema and the survey definition's, and the sign-in fetches this.
    path: "/control/v2/signing-key",
    schema: signingKeyResponse,
    suppressErrorToast: true,
    signal,
  });
}

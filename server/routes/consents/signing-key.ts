/**
 * GET /control/v2/signing-key: the server's RSA-OAEP-256 public key (server/consents/signing-key.ts),
 * to which the client encrypts the signer's password. Fetched at sign-in and kept for offline use.
 */
import type { FastifyInstance } from "fastify";
import { signingKeyCall } from "../../../core/contracts/calls/consent-calls.ts";
import type { SigningKeyResponse } from "../../../core/contracts/signing-key.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { publicSigningKey } from "../../consents/signing-key.ts";
import type { AppContext } from "../../context.ts";
import { registerCall } from "../../http/register-call.ts";

export function signingKeyRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, signingKeyCall, async (request): Promise<SigningKeyResponse> => {
    requireSession(request);
    return publicSigningKey(ctx.db);
  });
}

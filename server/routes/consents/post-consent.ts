/**
 * POST /control/v2/clinro/participant/{participantId}/consent  (any role but a witness)
 * POST /control/v2/witness/participant/{participantId}/consent (witness roles only)
 * Header version 010, Idempotency-Key. One consent session: checked and stored by
 * server/consents/record-consent.ts inside the idempotent write. A refused signer password is a
 * 422 signing_password_invalid (not 401/403, which sign the client out), stores nothing and
 * writes a signature_refused audit row after the write rolled back.
 */
import type { FastifyInstance } from "fastify";
import {
  postClinicianConsentCall,
  postWitnessConsentCall,
} from "../../../core/contracts/calls/consent-calls.ts";
import {
  CONSENT_SUBMISSION_MAX_BYTES,
  type ConsentSubmissionResponse,
} from "../../../core/contracts/consent-schemas.ts";
import { isWitness } from "../../../core/contracts/roles.ts";
import { recordAuditEvent } from "../../audit/audit-trail.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { requireParticipantConsent } from "../../consents/consent-access.ts";
import { receiveConsentSession, SigningRefusedError } from "../../consents/record-consent.ts";
import type { AppContext } from "../../context.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall, type CallRequest } from "../../http/register-call.ts";
import {
  jsonRequestIdentity,
  idempotencyKeyOf,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";

function endpointForbidden(endpoint: "clinro" | "witness") {
  return endpoint === "witness"
    ? new HttpError(403, "Only a witness may sign through the witness endpoint.", "witness_only")
    : new HttpError(
        403,
        "A witness signs through the witness endpoint, not the clinician one.",
        "witness_not_allowed",
      );
}

export function postConsentRoutes(app: FastifyInstance, ctx: AppContext) {
  const calls = { clinro: postClinicianConsentCall, witness: postWitnessConsentCall } as const;
  for (const endpoint of ["clinro", "witness"] as const) {
    registerCall(
      app,
      calls[endpoint],
      async (request, reply) => {
        const result = await handle(request, endpoint);
        return reply.code(200).header("idempotent-replayed", String(result.replayed)).send(result.body);
      },
      { bodyLimit: CONSENT_SUBMISSION_MAX_BYTES },
    );
  }

  /** The two calls take the same params and body (consentSubmissionParams, consentSubmissionBody). */
  async function handle(
    request: CallRequest<typeof postClinicianConsentCall>,
    endpoint: "clinro" | "witness",
  ) {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { participantId } = request.params;
    const body = request.body;
    const { consent, role } = await requireParticipantConsent(
      ctx.db,
      user.id,
      body.consent_id,
      participantId,
    );
    if (isWitness(role) !== (endpoint === "witness")) throw endpointForbidden(endpoint);
    const receivedAt = new Date();
    try {
      const result = await runIdempotentWrite(ctx.db, {
        ...jsonRequestIdentity(request, user.id, key),
        write: async (tx) => {
          const answer: ConsentSubmissionResponse = await receiveConsentSession(tx, {
            user,
            endpoint,
            consentId: consent.id,
            participantId,
            body,
            receivedAt,
          });
          return { statusCode: 200, body: answer };
        },
      });
      return result;
    } catch (error) {
      if (error instanceof SigningRefusedError) {
        await recordAuditEvent(ctx.db, {
          actorUserId: user.id,
          action: "signature_refused",
          tableName: "consent_participants",
          rowKey: { consent_id: consent.id, participant_id: participantId },
          details: {
            reason: error.reason,
            endpoint,
            consent_version: body.consent_version,
            method: request.method,
            path: request.url,
            questions: body.records.map((record) => record.id),
          },
        });
      }
      throw error;
    }
  }
}

/**
 * POST /control/v2/signing-password/check: one try of a staff signer's password at a signature,
 * encrypted to the signing key. Counted before it is checked (signing-attempts.ts); a refused try
 * writes a signing_password_refused audit row and answers 422 with the tries left; the try that
 * reaches the cap also revokes the token and answers 429 signing_attempts_exhausted.
 *
 * POST /control/v2/signing-password/refusals (Idempotency-Key): a try the device refused offline,
 * reported by the outbox; one signing_password_refused audit row, stored once per key.
 *
 * A consent and participant named must be one the user may sign for (404 or 403 otherwise).
 */
import type { FastifyInstance } from "fastify";
import {
  checkSigningPasswordCall,
  reportSigningRefusalCall,
} from "../../../core/contracts/calls/signing-calls.ts";
import {
  MAX_SIGNING_ATTEMPTS,
  SIGNING_PASSWORD_INVALID,
  SIGNING_ATTEMPTS_EXHAUSTED,
  type SigningPasswordRefused,
} from "../../../core/contracts/signing-attempts.ts";
import { recordAuditEvent, withAuditActor } from "../../audit/audit-trail.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { verifyPassword } from "../../auth/passwords.ts";
import { requireParticipantConsent } from "../../consents/consent-access.ts";
import { decryptSigningPassword } from "../../consents/signing-key.ts";
import { clearSigningAttempts, countSigningAttempt, revokeSession } from "../../consents/signing-attempts.ts";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import {
  idempotencyKeyOf,
  jsonRequestIdentity,
  runIdempotentWrite,
} from "../../idempotency/idempotent-write.ts";

type SigningContext = { signer_role: string; consent_id?: number; participant_id?: number };

/** The consent named, checked against the user's access; the audit row's table and key. */
async function signedRecord(db: Database, userId: number, context: SigningContext) {
  if (context.consent_id === undefined || context.participant_id === undefined) return {};
  await requireParticipantConsent(db, userId, context.consent_id, context.participant_id);
  return {
    tableName: "consent_participants",
    rowKey: { consent_id: context.consent_id, participant_id: context.participant_id },
  };
}

export function signingPasswordRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, checkSigningPasswordCall, async (request, reply) => {
    const { user, claims } = requireSession(request);
    const body = request.body;
    const record = await signedRecord(ctx.db, user.id, body);
    const attempt = await withAuditActor(ctx.db, user.id, (tx) => countSigningAttempt(tx, user.id, claims));
    const refused = async (reason: string) => {
      await recordAuditEvent(ctx.db, {
        actorUserId: user.id,
        action: "signing_password_refused",
        ...record,
        details: { reason, checked_on: "server", signer_role: body.signer_role, attempt },
      });
    };
    if (attempt > MAX_SIGNING_ATTEMPTS) {
      // Sent alongside the try that reached the cap: refused unchecked.
      await refused("attempts_exhausted");
      throw attemptsExhausted();
    }
    const password = await decryptSigningPassword(ctx.db, body.kid, body.password_ciphertext);
    if (password !== undefined && (await verifyPassword(user.passwordHash, password))) {
      await withAuditActor(ctx.db, user.id, (tx) => clearSigningAttempts(tx, claims.jti));
      return reply.code(204).send();
    }
    await refused(password === undefined ? "ciphertext_undecryptable" : "password_mismatch");
    if (attempt >= MAX_SIGNING_ATTEMPTS) {
      await withAuditActor(ctx.db, user.id, (tx) => revokeSession(tx, user.id, claims));
      throw attemptsExhausted();
    }
    const answer: SigningPasswordRefused = {
      message: "The password is not correct. Nothing was signed.",
      code: SIGNING_PASSWORD_INVALID,
      attempts_left: MAX_SIGNING_ATTEMPTS - attempt,
    };
    return reply.code(422).send(answer);
  });

  registerCall(app, reportSigningRefusalCall, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const body = request.body;
    const record = await signedRecord(ctx.db, user.id, body);
    const result = await runIdempotentWrite(ctx.db, {
      ...jsonRequestIdentity(request, user.id, key),
      write: async (tx) => {
        await recordAuditEvent(tx, {
          actorUserId: user.id,
          action: "signing_password_refused",
          ...record,
          details: {
            reason: "password_mismatch",
            checked_on: "device",
            signer_role: body.signer_role,
            attempted_at: body.attempted_at,
          },
        });
        return { statusCode: 200, body: { recorded: true } };
      },
    });
    return reply.code(result.statusCode).send(result.body);
  });
}

function attemptsExhausted() {
  return new HttpError(
    429,
    `${MAX_SIGNING_ATTEMPTS} wrong signing passwords in a row: the session has ended. Sign in again.`,
    SIGNING_ATTEMPTS_EXHAUSTED,
  );
}

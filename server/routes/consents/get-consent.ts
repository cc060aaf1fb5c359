/**
 * GET /control/v2/clinro/consent?consent_id&version&ptp_id: the consent definition of that
 * version with the participant, their status, the answers of earlier signings (to pre-fill,
 * read-only) and the signatures so far with their verification.
 * 404: unknown consent or version. 403: consent or participant outside the user's studies and
 * sites, or the participant not on that consent version.
 */
import type { FastifyInstance } from "fastify";
import { getConsentCall } from "../../../core/contracts/calls/consent-calls.ts";
import type { ConsentDefinitionResponse } from "../../../core/contracts/consent-schemas.ts";
import { consentParticipantStatus } from "../../../core/contracts/consents.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { requireParticipantConsent, notOfferedForbidden } from "../../consents/consent-access.ts";
import { consentVersionOf } from "../../consents/consent-definitions.ts";
import { loadConsentState, manifestationsOf } from "../../consents/consent-signings.ts";
import type { AppContext } from "../../context.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";

export function getConsentRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, getConsentCall, async (request): Promise<ConsentDefinitionResponse> => {
    const { user } = requireSession(request);
    const query = request.query;
    const { consent, participant, offer } = await requireParticipantConsent(
      ctx.db,
      user.id,
      query.consent_id,
      query.ptp_id,
    );
    const published = await consentVersionOf(ctx.db, consent.id, query.version);
    if (!published) {
      throw new HttpError(
        404,
        `Consent ${consent.id} has no version ${query.version}.`,
        "consent_version_not_found",
      );
    }
    if (offer.version !== query.version) throw notOfferedForbidden();
    const state = await loadConsentState(ctx.db, {
      consentId: consent.id,
      participantId: participant.id,
      version: offer.version,
    });
    return {
      consent_id: consent.id,
      consent_version: offer.version,
      title: published.definition.title ?? consent.title,
      study_id: consent.studyId,
      status: consentParticipantStatus.parse(offer.status),
      participant: {
        id: participant.id,
        subject_id: participant.subjectId,
        firstname: participant.fname,
        lastname: participant.lname,
        email: participant.email ?? null,
      },
      definition: published.definition,
      records: state.records,
      signatures: manifestationsOf(state),
    };
  });
}

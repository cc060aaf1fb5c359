/**
 * GET /control/v2/clinro/consent/blank?consent_id&version: a consent version as published, with
 * no participant. A device fetches it while online for the consents of its site, so that a
 * participant enrolled offline (whom the server does not know yet, so the participant's consent
 * call cannot answer) can sign it offline; the signing is sent after the enrolment.
 * 404: unknown consent or version. 403: a consent of a study outside the user's permissions.
 */
import type { FastifyInstance } from "fastify";
import { getBlankConsentCall } from "../../../core/contracts/calls/consent-calls.ts";
import type { BlankConsentResponse } from "../../../core/contracts/consent-schemas.ts";
import { requireSession } from "../../auth/authenticate.ts";
import { requireConsent } from "../../consents/consent-access.ts";
import { consentVersionOf } from "../../consents/consent-definitions.ts";
import type { AppContext } from "../../context.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";

export function getBlankConsentRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, getBlankConsentCall, async (request): Promise<BlankConsentResponse> => {
    const { user } = requireSession(request);
    const { consent } = await requireConsent(ctx.db, user.id, request.query.consent_id);
    const published = await consentVersionOf(ctx.db, consent.id, request.query.version);
    if (!published) {
      throw new HttpError(
        404,
        `Consent ${consent.id} has no version ${request.query.version}.`,
        "consent_version_not_found",
      );
    }
    return {
      consent_id: consent.id,
      consent_version: request.query.version,
      title: published.definition.title ?? consent.title,
      study_id: consent.studyId,
      definition: published.definition,
    };
  });
}

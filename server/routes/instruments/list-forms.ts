/**
 * GET /control/clinro/participants/{participantId}/instruments, optional ?study_id: the forms
 * list of the older instrument architecture, one item per delivery (CLINRO and ANNOUNCEMENT).
 * The client splits it into the to-do and completed tabs.
 */
import { listFormsCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import type { FastifyInstance } from "fastify";
import {
  instrumentType,
  instrumentUrl,
  type FormsListResponse,
} from "../../../core/contracts/instrument-lists.ts";
import { alongsideSessionCheck, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import {
  loadParticipantInstances,
  requireParticipantInStudy,
} from "../../instruments/participant-instruments.ts";

export function formsListRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    listFormsCall,
    async (request): Promise<FormsListResponse> => {
      const claims = unconfirmedClaims(request);
      const { participantId } = request.params;
      const { study_id } = request.query;
      // The access check and the read at once, beside the session check: nothing is answered
      // unless both checks hold. Without study_id the read waits for the participant's study.
      const [participant, inStudy] = await alongsideSessionCheck(request, [
        requireParticipantInStudy(ctx.db, claims.id, participantId, study_id),
        study_id === undefined ? undefined : loadParticipantInstances(ctx.db, participantId, study_id),
      ]);
      const delivered =
        inStudy ?? (await loadParticipantInstances(ctx.db, participantId, participant.studyId));
      // A retired instrument's open deliveries are no longer to do; what was completed stays.
      const rows = delivered.filter(
        ({ instrument, instance }) => !instrument.retiredAt || instance.completion,
      );
      return {
        instruments: rows.map(({ instrument, instance, completerName }) => ({
          name: instrument.displayName,
          type: instrumentType.parse(instrument.instrumentType),
          instrument_id: instrument.id,
          instance_id: instance.id,
          deployed: instance.startDate.toISOString(),
          expiration: instance.expiration?.toISOString() ?? null,
          completed: instance.completion?.toISOString() ?? null,
          completedBy: instance.completion ? (completerName ?? null) : null,
          permissions: instrument.permissions,
          url: instrumentUrl(instrument.studyId, instrument.id, instrument.slug),
        })),
      };
    },
    { sessionCheckedByRead: true },
  );
}

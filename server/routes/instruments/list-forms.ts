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
import { isoTime } from "../../db/iso-time.ts";
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
      return {
        instruments: delivered.map((row) => ({
          name: row.display_name,
          type: instrumentType.parse(row.instrument_type),
          instrument_id: row.instrument_id,
          instance_id: row.instance_id,
          deployed: isoTime(row.start_date),
          expiration: isoTime(row.expiration),
          completed: isoTime(row.completion),
          completedBy: row.completion === null ? null : row.completer_name,
          permissions: row.permissions,
          url: instrumentUrl(row.study_id, row.instrument_id, row.slug),
        })),
      };
    },
    { sessionCheckedByRead: true },
  );
}

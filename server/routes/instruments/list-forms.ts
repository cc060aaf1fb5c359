/**
 * GET /control/clinro/participants/{participantId}/instruments, optional ?study_id: the forms
 * list of the older instrument architecture, one item per delivery (CLINRO and ANNOUNCEMENT).
 * The client splits it into the to-do and completed tabs.
 */
import type { FastifyInstance } from "fastify";
import {
  formsListQuery,
  instrumentType,
  instrumentUrl,
  participantIdParam,
  type FormsListResponse,
} from "../../../src/contracts/instrument-lists.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { parseInput } from "../../http/errors.ts";
import {
  loadParticipantInstances,
  requireParticipantInStudy,
} from "../../instruments/participant-instruments.ts";

const FORM_TYPES = ["CLINRO", "ANNOUNCEMENT"];

export function formsListRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    "/control/clinro/participants/:participantId/instruments",
    async (request): Promise<FormsListResponse> => {
      const { user } = requireSession(request);
      const { participantId } = parseInput(participantIdParam, request.params);
      const { study_id } = parseInput(formsListQuery, request.query);
      const participant = await requireParticipantInStudy(ctx.db, user.id, participantId, study_id);
      const rows = await loadParticipantInstances(ctx.db, participantId, participant.studyId, FORM_TYPES);
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
  );
}

/**
 * GET /control/participants/{participantId}/instruments/instances?study_id={studyId}: the
 * instruments of the newer architecture with the participant's instances of each. Instruments
 * without an instance for the participant are left out.
 */
import { listInstancesCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import type { FastifyInstance } from "fastify";
import {
  instrumentMetadata,
  instrumentType,
  instrumentUrl,
  type InstancesListResponse,
  type InstrumentWithInstances,
} from "../../../core/contracts/instrument-lists.ts";
import { alongsideSessionCheck, unconfirmedClaims } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import {
  loadParticipantInstances,
  requireParticipantInStudy,
} from "../../instruments/participant-instruments.ts";

export function instancesListRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(
    app,
    listInstancesCall,
    async (request): Promise<InstancesListResponse> => {
      const claims = unconfirmedClaims(request);
      const { participantId } = request.params;
      const { study_id } = request.query;
      // The access check and the read at once, beside the session check: nothing is answered
      // unless both checks hold.
      const [, delivered] = await alongsideSessionCheck(request, [
        requireParticipantInStudy(ctx.db, claims.id, participantId, study_id),
        loadParticipantInstances(ctx.db, participantId, study_id),
      ]);
      // A retired instrument's open deliveries are no longer to do; what was completed stays.
      const rows = delivered.filter(
        ({ instrument, instance }) => !instrument.retiredAt || instance.completion,
      );
      const byInstrument = new Map<number, InstrumentWithInstances>();
      for (const { instrument, instance, completerName } of rows) {
        let entry = byInstrument.get(instrument.id);
        if (!entry) {
          const metadata = instrumentMetadata.safeParse(instrument.metadata);
          entry = {
            instrument_id: instrument.id,
            name: instrument.displayName,
            instrument_type: instrumentType.parse(instrument.instrumentType),
            permissions: instrument.permissions,
            visible_days: instrument.visibleDays,
            metadata: metadata.success ? metadata.data : { display_name: instrument.displayName },
            url: instrumentUrl(instrument.studyId, instrument.id, instrument.slug),
            instances: [],
          };
          byInstrument.set(instrument.id, entry);
        }
        entry.instances.push({
          instance_id: instance.id,
          start_date: instance.startDate.toISOString(),
          expiration: instance.expiration?.toISOString() ?? null,
          completion: instance.completion?.toISOString() ?? null,
          who_completed: instance.whoCompleted,
          who_completed_name: instance.completion ? (completerName ?? null) : null,
        });
      }
      return { instruments: [...byInstrument.values()].sort((a, b) => a.name.localeCompare(b.name)) };
    },
    { sessionCheckedByRead: true },
  );
}

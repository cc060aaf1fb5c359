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
import { isoTime } from "../../db/iso-time.ts";
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
      const byInstrument = new Map<number, InstrumentWithInstances>();
      for (const row of delivered) {
        let entry = byInstrument.get(row.instrument_id);
        if (!entry) {
          const metadata = instrumentMetadata.safeParse(row.metadata);
          entry = {
            instrument_id: row.instrument_id,
            name: row.display_name,
            instrument_type: instrumentType.parse(row.instrument_type),
            permissions: row.permissions,
            visible_days: row.visible_days,
            metadata: metadata.success ? metadata.data : { display_name: row.display_name },
            url: instrumentUrl(row.study_id, row.instrument_id, row.slug),
            instances: [],
          };
          byInstrument.set(row.instrument_id, entry);
        }
        entry.instances.push({
          instance_id: row.instance_id,
          start_date: isoTime(row.start_date),
          expiration: isoTime(row.expiration),
          completion: isoTime(row.completion),
          who_completed: row.who_completed,
          who_completed_name: row.completion === null ? null : row.completer_name,
        });
      }
      return { instruments: [...byInstrument.values()].sort((a, b) => a.name.localeCompare(b.name)) };
    },
    { sessionCheckedByRead: true },
  );
}

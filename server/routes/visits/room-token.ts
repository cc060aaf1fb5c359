/**
 * GET  /control/studies/{studyId}/room_name/{roomName}/validate_room
 * POST /control/studies/{studyId}/room_name/{roomName}/renew_token
 *
 * The clinician's way into a room: the room token (an Agora RTC token, or a built-in room
 * ticket for the signalling WebSocket) and isRecorded. renew_token answers the same with a fresh
 * token, before the old one expires. Both check the study and the visit's site against the user's
 * permissions (a witness has none), and refuse an unknown room (404), an ended visit (410) and a
 * visit without a video room (409). renew_token writes nothing, so it needs no Idempotency-Key.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { renewTokenCall, validateRoomCall } from "../../../core/contracts/calls/visit-calls.ts";
import type { RoomParams, ValidateRoomResponse } from "../../../core/contracts/visits.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { registerCall } from "../../http/register-call.ts";
import { roomConnection, type RoomServices } from "../../visits/room-connection.ts";
import { roomForClinician } from "../../visits/visit-records.ts";

export function roomTokenRoutes(app: FastifyInstance, ctx: AppContext, services: RoomServices) {
  // Both calls take the same params (parsed by their declarations) and answer the same.
  async function answer(request: FastifyRequest<{ Params: RoomParams }>): Promise<ValidateRoomResponse> {
    const { user } = requireSession(request);
    const { studyId, roomName } = request.params;
    const now = new Date();
    const visit = await roomForClinician(ctx.db, user.id, studyId, roomName, now);
    const connection = await roomConnection(
      services,
      { studyId, roomName: visit.roomName },
      { role: "clinician", userId: user.id },
      now,
    );
    return { ...connection, isRecorded: visit.isRecorded };
  }
  registerCall(app, validateRoomCall, answer);
  registerCall(app, renewTokenCall, answer);
}

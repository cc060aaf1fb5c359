/**
 * GET /control/visits/join/{secret}: the participant's join page (no account, no token). The
 * secret of the mailed link opens that one visit's room, inside its window only: 404 for an
 * unknown secret, 410 join_link_expired outside the window. Asking again answers a fresh room
 * token (the participant's renewal).
 */
import type { FastifyInstance } from "fastify";
import { joinVisitCall } from "../../../core/contracts/calls/visit-calls.ts";
import { JOIN_OPENS_BEFORE_MIN, type JoinResponse } from "../../../core/contracts/visits.ts";
import type { AppContext } from "../../context.ts";
import { HttpError } from "../../http/errors.ts";
import { registerCall } from "../../http/register-call.ts";
import { isInsideJoinWindow, joinWindow } from "../../visits/join-links.ts";
import { roomConnection, type RoomServices } from "../../visits/room-connection.ts";
import { visitOfJoinSecret } from "../../visits/visit-records.ts";

export function joinVisitRoutes(app: FastifyInstance, ctx: AppContext, services: RoomServices) {
  // The request log shows this path with its secret redacted (server/app.ts's req serializer).
  registerCall(app, joinVisitCall, async (request, reply): Promise<JoinResponse> => {
    // The answer carries a credential: no cache keeps it.
    void reply.header("cache-control", "no-store");
    const { secret } = request.params;
    const found = await visitOfJoinSecret(ctx.db, secret);
    if (!found || found.visit.token === null) {
      throw new HttpError(404, "This visit link is not known.", "join_link_unknown");
    }
    const { visit, studyName } = found;
    const now = new Date();
    if (!isInsideJoinWindow(visit, now)) {
      const { opens } = joinWindow(visit);
      throw new HttpError(
        410,
        now < opens
          ? `This visit link opens at ${opens.toISOString()}, ${JOIN_OPENS_BEFORE_MIN} minutes before the visit.`
          : "This visit link has expired: the visit is over. Contact your study site for a new one.",
        "join_link_expired",
      );
    }
    const connection = await roomConnection(
      services,
      { studyId: visit.studyId, roomName: visit.roomName },
      { role: "participant", participantId: visit.participantId },
      now,
    );
    return {
      ...connection,
      room_name: visit.roomName,
      study_name: studyName,
      visit_time: visit.visitTime.toISOString(),
      visit_duration: visit.visitDuration,
      isRecorded: visit.isRecorded,
    };
  });
}

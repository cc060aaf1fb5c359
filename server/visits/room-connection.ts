/**
 * What a room needs to connect, for either video service: an Agora RTC token for the uid of the
 * side that asks, or a built-in room ticket with the ICE servers. Both live ROOM_TOKEN_TTL_S.
 */
import { ROOM_TOKEN_TTL_S, type RoomConnection, type VisitRole } from "../../core/contracts/visits.ts";
import { agoraUid, buildAgoraRtcToken } from "./agora-token.ts";
import type { RoomTicketSigner } from "./room-tickets.ts";
import type { VideoSettings } from "./video-settings.ts";

export type RoomServices = { video: VideoSettings; tickets: RoomTicketSigner };

export type RoomSide = { role: "clinician"; userId: number } | { role: "participant"; participantId: number };

export async function roomConnection(
  services: RoomServices,
  room: { studyId: number; roomName: string },
  side: RoomSide,
  now: Date,
): Promise<RoomConnection> {
  // Whole seconds: both token formats count in seconds.
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + ROOM_TOKEN_TTL_S) * 1000);
  const { agora } = services.video;
  if (agora) {
    const uid = agoraUid(side);
    return {
      provider: "agora",
      roomToken: buildAgoraRtcToken(agora, { channel: room.roomName, uid, ttlSeconds: ROOM_TOKEN_TTL_S }),
      channel: room.roomName,
      app_id: agora.appId,
      uid,
      expires_at: expiresAt.toISOString(),
    };
  }
  const role: VisitRole = side.role;
  const ticket = await services.tickets.sign(
    {
      studyId: room.studyId,
      room: room.roomName,
      role,
      subject: side.role === "clinician" ? side.userId : side.participantId,
    },
    expiresAt,
  );
  return {
    provider: "builtin",
    roomToken: ticket,
    channel: room.roomName,
    expires_at: expiresAt.toISOString(),
    ice_servers: services.video.iceServers,
  };
}

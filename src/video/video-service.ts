/**
 * Picks the video service of a room. The types and the event hub the adapters share
 * are in video-port.ts.
 */
import type { VideoRoom, VideoService } from "./video-port.ts";

export type * from "./video-port.ts";

/**
 * The service for a room. Agora's adapter (and with it, on join, the SDK) loads only here, when
 * a room on Agora opens.
 */
export async function createVideoService(room: VideoRoom): Promise<VideoService> {
  if (room.provider === "agora") {
    const { createAgoraService } = await import("./agora.ts");
    return createAgoraService(room);
  }
  const { createBuiltinService } = await import("./builtin-webrtc.ts");
  return createBuiltinService(room);
}

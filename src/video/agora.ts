/**
 * The Agora video service (design card: agora-rtc-sdk-ng). The SDK (about 1.5 MB) is loaded
 * with a dynamic import when a room on Agora joins, never with the app.
 *
 * Owns, for one room: the Agora client, its local microphone and camera tracks and the remote
 * user's tracks. The server issues short-lived RTC tokens; on the SDK's
 * token-privilege-will-expire the service asks for a new one (the renew call, or the join call
 * for a participant) and hands it to the client. Agora has no "end for everyone": when the
 * clinician leaves, the other side sees the user leave.
 */
import type {
  IAgoraRTCClient,
  IAgoraRTCRemoteUser,
  ICameraVideoTrack,
  IMicrophoneAudioTrack,
} from "agora-rtc-sdk-ng";
import { createEmitter, type JoinOptions, type VideoRoom, type VideoService } from "./video-port.ts";

/** Agora error codes that mean the camera or microphone was refused or is missing. */
const PERMISSION_CODES = new Set(["PERMISSION_DENIED", "DEVICE_NOT_FOUND", "NOT_READABLE"]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown; name?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function isMediaPermissionError(error: unknown) {
  const code = errorCode(error);
  const name = (error as { name?: unknown } | null)?.name;
  return (code !== undefined && PERMISSION_CODES.has(code)) || name === "NotAllowedError";
}

export function createAgoraService(room: VideoRoom): VideoService {
  const events = createEmitter();
  let client: IAgoraRTCClient | null = null;
  let microphone: IMicrophoneAudioTrack | null = null;
  let camera: ICameraVideoTrack | null = null;
  let left = false;
  const remoteStream = new MediaStream();

  const fail = (failure: "permission" | "connection", detail: string) => {
    if (!left) events.emit({ type: "failed", failure, detail });
  };

  const showRemote = (user: IAgoraRTCRemoteUser) => {
    for (const track of remoteStream.getTracks()) remoteStream.removeTrack(track);
    if (user.videoTrack) remoteStream.addTrack(user.videoTrack.getMediaStreamTrack());
    events.emit({ type: "remoteStream", stream: remoteStream });
  };

  async function renew() {
    try {
      const { roomToken } = await room.renewToken();
      await client?.renewToken(roomToken);
    } catch (error) {
      fail("connection", `token renewal failed: ${String(error)}`);
    }
  }

  return {
    on: events.on,

    async join(options: JoinOptions) {
      const { default: AgoraRTC } = await import("agora-rtc-sdk-ng");
      if (left) return;
      const created = AgoraRTC.createClient({ mode: "rtc", codec: "vp8" });
      client = created;
      created.on("user-joined", () => events.emit({ type: "peerJoined" }));
      created.on(
        "user-published",
        (user: IAgoraRTCRemoteUser, mediaType: "audio" | "video" | "datachannel") => {
          if (mediaType === "datachannel") return;
          // The SDK does not wait for its listeners: a failed subscription is reported here.
          created.subscribe(user, mediaType).then(
            () => {
              if (mediaType === "audio") user.audioTrack?.play();
              else showRemote(user);
            },
            (error: unknown) => console.warn("Agora subscribe failed", error),
          );
        },
      );
      created.on("user-unpublished", (user: IAgoraRTCRemoteUser) => showRemote(user));
      created.on("user-left", () => {
        for (const track of remoteStream.getTracks()) remoteStream.removeTrack(track);
        events.emit({ type: "peerLeft" });
      });
      created.on("token-privilege-will-expire", () => void renew());
      created.on("token-privilege-did-expire", () => fail("connection", "the room token expired"));
      created.on("connection-state-change", (state: string, _previous: string, reason?: string) => {
        if (state === "DISCONNECTED" && reason !== "LEAVE")
          fail("connection", `disconnected: ${reason ?? ""}`);
      });

      try {
        [microphone, camera] = await AgoraRTC.createMicrophoneAndCameraTracks();
      } catch (error) {
        fail(isMediaPermissionError(error) ? "permission" : "connection", `media: ${String(error)}`);
        return;
      }
      // Muted rather than disabled: unmuting is instant and the device stays chosen.
      await microphone.setMuted(!options.microphoneEnabled);
      if (!options.cameraEnabled) await camera.setEnabled(false);
      events.emit({
        type: "localStream",
        stream: new MediaStream([microphone.getMediaStreamTrack(), camera.getMediaStreamTrack()]),
      });

      try {
        await created.join(room.appId ?? "", room.channel, room.roomToken, room.uid ?? null);
        await created.publish([microphone, camera]);
      } catch (error) {
        fail("connection", `join failed: ${errorCode(error) ?? String(error)}`);
      }
    },

    async leave() {
      if (left) return;
      left = true;
      microphone?.close();
      camera?.close();
      microphone = null;
      camera = null;
      await client?.leave();
      client?.removeAllListeners();
      client = null;
    },

    async setMicrophoneEnabled(enabled: boolean) {
      await microphone?.setMuted(!enabled);
    },

    async setCameraEnabled(enabled: boolean) {
      // setEnabled(false) releases the camera (its light goes off) and stops sending video.
      await camera?.setEnabled(enabled);
    },
  };
}

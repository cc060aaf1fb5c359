/**
 * One interface for the two video services of a visit: the built-in peer-to-peer
 * WebRTC service (default on a fresh install) and Agora (when the server has an Agora account).
 * A service acquires the camera and microphone itself (Agora makes its own tracks), joins one
 * room, and reports what happens as events; the room and the join page only render streams.
 * Plain TypeScript: no React, router or Lingui. The adapters import this module; the factory
 * that picks one (video-service.ts) imports them, so nothing here imports back.
 */
import type { VideoProvider } from "../../core/contracts/visits.ts";

export type VideoFailure = "permission" | "connection";

export type VideoEvent =
  /** The camera and microphone are on (the microphone may be muted): render this stream. */
  | { type: "localStream"; stream: MediaStream }
  /** The other side's media arrived (or changed). */
  | { type: "remoteStream"; stream: MediaStream }
  | { type: "peerJoined" }
  | { type: "peerLeft" }
  /** The clinician ended the visit for everyone. */
  | { type: "ended" }
  | { type: "failed"; failure: VideoFailure; detail: string };

export type VideoListener = (event: VideoEvent) => void;

/** A fresh room token (Agora: before the old one expires). */
export type RenewRoomToken = () => Promise<{ roomToken: string }>;

export type JoinOptions = {
  /** Microphone and camera state at the start (the clinician's room: muted, camera on). */
  microphoneEnabled: boolean;
  cameraEnabled: boolean;
};

export type VideoService = {
  join(options: JoinOptions): Promise<void>;
  /** Leaves the room; `endForEveryone` (the clinician hanging up) ends it for the other side too. */
  leave(options?: { endForEveryone?: boolean }): Promise<void>;
  setMicrophoneEnabled(enabled: boolean): Promise<void>;
  setCameraEnabled(enabled: boolean): Promise<void>;
  /** Subscribes to the service's events; returns the unsubscribe function. */
  on(listener: VideoListener): () => void;
};

/** What a service needs to reach its room (from validate_room, renew_token or the join call). */
export type VideoRoom = {
  provider: VideoProvider;
  roomName: string;
  roomToken: string;
  channel: string;
  appId?: string;
  uid?: number;
  iceServers?: RTCIceServer[];
  renewToken: RenewRoomToken;
  /**
   * Opens the built-in service's signalling socket (src/api/visits-api.ts): the network's one
   * door stays in src/api, and the video layer does not import it.
   */
  openSignalSocket: () => WebSocket;
};

/** A small event hub shared by the adapters. */
export function createEmitter() {
  const listeners = new Set<VideoListener>();
  return {
    on(listener: VideoListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(event: VideoEvent) {
      for (const listener of listeners) listener(event);
    },
  };
}

/** Media errors that mean "the browser or the person refused, or there is no device". */
export function isPermissionError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    name === "NotAllowedError" ||
    name === "SecurityError" ||
    name === "NotFoundError" ||
    name === "NotReadableError" ||
    name === "OverconstrainedError"
  );
}

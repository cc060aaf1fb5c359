/**
 * Runs one video service for as long as a component shows a room: creates it for the room,
 * joins, keeps the local and remote streams for rendering, forwards the service's events, and
 * leaves when the room changes or the component goes away. The room object must stay the same
 * for one room (memoise it): a new object is a new room.
 */
import { useEffect, useRef, useState } from "react";
import {
  createVideoService,
  type JoinOptions,
  type VideoEvent,
  type VideoRoom,
  type VideoService,
} from "../../video/video-service.ts";

export type VideoSession = {
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  setMicrophoneEnabled(enabled: boolean): void;
  setCameraEnabled(enabled: boolean): void;
};

export function useVideoSession(
  room: VideoRoom | null,
  options: JoinOptions & { endForEveryoneOnLeave: boolean; onEvent?: (event: VideoEvent) => void },
): VideoSession {
  const [localStream, setLocalStream] = useState<MediaStream | null>(null);
  const [remoteStream, setRemoteStream] = useState<MediaStream | null>(null);
  const serviceRef = useRef<VideoService | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  useEffect(() => {
    if (!room) return;
    let cancelled = false;
    let service: VideoService | null = null;
    void createVideoService(room).then((created) => {
      if (cancelled) return;
      service = created;
      serviceRef.current = created;
      created.on((event) => {
        if (event.type === "localStream") setLocalStream(event.stream);
        if (event.type === "remoteStream") setRemoteStream(event.stream);
        if (event.type === "peerLeft" || event.type === "ended") setRemoteStream(null);
        optionsRef.current.onEvent?.(event);
      });
      const { microphoneEnabled, cameraEnabled } = optionsRef.current;
      void created.join({ microphoneEnabled, cameraEnabled });
    });
    return () => {
      cancelled = true;
      serviceRef.current = null;
      void service?.leave({ endForEveryone: optionsRef.current.endForEveryoneOnLeave });
      setLocalStream(null);
      setRemoteStream(null);
    };
  }, [room]);

  return {
    localStream,
    remoteStream,
    setMicrophoneEnabled: (enabled) => void serviceRef.current?.setMicrophoneEnabled(enabled),
    setCameraEnabled: (enabled) => void serviceRef.current?.setCameraEnabled(enabled),
  };
}

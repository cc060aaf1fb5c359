/**
 * The clinician's video room as a global overlay (spec 01 "Video room"; global UI: the
 * visit-room overlay open, closed or minimised). Rendered by the root layout, so the room stays
 * open while the clinician moves between pages. Validates the room first (either outcome opens
 * it), runs the video service while it is open, minimises on a click outside (or Escape), and
 * shows the 'visit recorded' toast after a recorded room closes.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { formatElapsed } from "../../video/elapsed-time.ts";
import { openSignalSocket, renewRoomToken, validateRoom } from "../../api/visits-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { dispatchRoom, getRoomState, subscribeToRoom } from "../../video/visit-room-store.ts";
import { isLocalPictureInPicture, type OpenRoom } from "../../video/visit-room-state.ts";
import type { VideoEvent, VideoRoom } from "../../video/video-service.ts";
import { PermissionDeniedBox } from "../../widgets/video-container/permission-denied-box.tsx";
import { RoomControls } from "../../widgets/video-container/room-controls.tsx";
import { useVideoSession } from "../../widgets/video-container/use-video-session.ts";
import { VideoContainer } from "../../widgets/video-container/video-container.tsx";
import { VideoStream } from "../../widgets/video-container/video-stream.tsx";
import "../../widgets/video-container/video-room.css";

export function useVisitRoomState() {
  return useSyncExternalStore(subscribeToRoom, getRoomState, getRoomState);
}

export function VisitRoomOverlay() {
  const state = useVisitRoomState();
  const user = useStoredUser();

  // Signing out (or a session ending) hangs up.
  useEffect(() => {
    if (!user) dispatchRoom({ type: "hangUp" });
  }, [user]);

  // Validation: either outcome opens the room.
  const validating = state.status === "validating" ? state.request : null;
  useEffect(() => {
    if (!validating) return;
    let current = true;
    validateRoom(validating.studyId, validating.roomName).then(
      (answer) => {
        if (!current) return;
        dispatchRoom({
          type: "validated",
          isRecorded: answer.isRecorded,
          connection: {
            provider: answer.provider,
            roomToken: answer.roomToken,
            channel: answer.channel,
            appId: answer.app_id,
            uid: answer.uid,
            iceServers: answer.ice_servers as RTCIceServer[] | undefined,
            expiresAt: answer.expires_at,
          },
        });
      },
      (error: unknown) => {
        // Logged (spec 01 section 8); the room opens and shows why it cannot connect.
        console.warn("validate_room failed", error);
        if (current) dispatchRoom({ type: "validationFailed" });
      },
    );
    return () => {
      current = false;
    };
  }, [validating]);

  if (state.status === "open") return <OpenVisitRoom key={state.request.roomName} room={state} />;
  if (state.status === "validating") {
    return (
      <div className="visit-room visit-room--expanded" role="status">
        <p className="visit-room__waiting">
          <Trans id="visit_room_connecting">Opening the video room…</Trans>
        </p>
      </div>
    );
  }
  return null;
}

function OpenVisitRoom({ room }: { room: OpenRoom }) {
  const { t } = useLingui();
  const rootRef = useRef<HTMLDivElement>(null);
  const { request, connection } = room;

  const videoRoom = useMemo<VideoRoom>(
    () => ({
      // A failed validation has no provider: try the built-in service with the visit's token,
      // whose refusal shows the box.
      provider: connection.provider === "agora" ? "agora" : "builtin",
      roomName: request.roomName,
      roomToken: connection.roomToken,
      channel: connection.channel,
      appId: connection.appId,
      uid: connection.uid,
      iceServers: connection.iceServers,
      renewToken: () => renewRoomToken(request.studyId, request.roomName),
      openSignalSocket,
    }),
    [connection, request],
  );

  const onEvent = (event: VideoEvent) => {
    if (event.type === "peerJoined" || event.type === "remoteStream") dispatchRoom({ type: "remoteJoined" });
    if (event.type === "peerLeft") dispatchRoom({ type: "remoteLeft" });
    if (event.type === "failed") {
      console.warn("video room failed", event.detail);
      dispatchRoom({ type: "failed", failure: event.failure });
    }
  };

  const session = useVideoSession(videoRoom, {
    microphoneEnabled: false,
    cameraEnabled: true,
    endForEveryoneOnLeave: true,
    onEvent,
  });
  const { setMicrophoneEnabled, setCameraEnabled } = session;
  useEffect(
    () => setMicrophoneEnabled(room.microphoneEnabled),
    [room.microphoneEnabled, setMicrophoneEnabled],
  );
  useEffect(() => setCameraEnabled(room.cameraEnabled), [room.cameraEnabled, setCameraEnabled]);

  // Focus goes into the room when it opens, so the keyboard and screen readers are there.
  useEffect(() => {
    rootRef.current?.querySelector<HTMLElement>(".room-controls button")?.focus();
  }, []);

  // A click (or tap) outside the expanded room minimises it; Escape too.
  useEffect(() => {
    if (room.minimize) return;
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node))
        dispatchRoom({ type: "minimize" });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") dispatchRoom({ type: "minimize" });
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [room.minimize]);

  // The call's elapsed time, counted from the room's opening (minimising keeps the count).
  const [openedAt] = useState(Date.now);
  const [now, setNow] = useState(openedAt);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const elapsed = formatElapsed(now - openedAt);
  const participantName = request.participantName;

  const pictureInPicture = isLocalPictureInPicture(room) && session.remoteStream !== null;
  return (
    <>
      {room.minimize ? null : <div className="visit-room__backdrop" aria-hidden="true" />}
      <div
        ref={rootRef}
        className={`visit-room ${room.minimize ? "visit-room--minimized" : "visit-room--expanded"}`}
      >
        <VideoContainer
          minimized={room.minimize}
          label={t({ id: "visit_room_label", message: "Video visit" })}
        >
          {room.minimize ? null : (
            <p className="visit-room__header">
              {participantName ? (
                <span className="visit-room__participant">
                  <Trans id="visit_room_with">Visit with {participantName}</Trans>
                </span>
              ) : null}
              <span className="visit-room__elapsed">
                <span className="visually-hidden">
                  <Trans id="visit_room_elapsed">Elapsed time</Trans>{" "}
                </span>
                <time dateTime={`PT${Math.floor((now - openedAt) / 1000)}S`}>{elapsed}</time>
              </span>
            </p>
          )}
          <div className="visit-room__stage">
            {pictureInPicture ? (
              <VideoStream
                stream={session.remoteStream}
                label={t({ id: "visit_room_remote_video", message: "Participant's video" })}
                testId="remote-video"
              />
            ) : null}
            <VideoStream
              stream={session.localStream}
              local
              label={t({ id: "visit_room_local_video", message: "Your video" })}
              className={pictureInPicture ? "video-stream--pip" : ""}
              testId="local-video"
            />
            {!room.remotePresent && !room.failure && !room.minimize ? (
              <p className="visit-room__waiting" role="status">
                <Trans id="visit_room_waiting">Waiting for the participant to join…</Trans>
              </p>
            ) : null}
            {room.isRecorded ? (
              <span className="visit-room__recording">
                <span aria-hidden="true" className="recording-dot" />
                {/* Before the participant is there, what will happen; then, what is happening. */}
                {room.remotePresent ? (
                  <Trans id="visit_room_recording">Recording</Trans>
                ) : (
                  <Trans id="visit_room_will_be_recorded">This visit will be recorded</Trans>
                )}
              </span>
            ) : null}
          </div>
          {room.failure && !room.minimize ? <PermissionDeniedBox failure={room.failure} /> : null}
          <RoomControls
            microphoneEnabled={room.microphoneEnabled}
            cameraEnabled={room.cameraEnabled}
            onToggleMicrophone={() => dispatchRoom({ type: "toggleMicrophone" })}
            onToggleCamera={() => dispatchRoom({ type: "toggleCamera" })}
            onHangUp={() => dispatchRoom({ type: "hangUp" })}
            size={{ minimized: room.minimize, onToggle: () => dispatchRoom({ type: "toggleSize" }) }}
          />
        </VideoContainer>
      </div>
    </>
  );
}

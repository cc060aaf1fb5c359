import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ApiError } from "../../api/request.ts";
import { fetchJoin, joinQuery, openSignalSocket } from "../../api/visits-api.ts";
import type { JoinResponse } from "../../../core/contracts/visits.ts";
import { formatDateTime } from "../../i18n/format-date.ts";
import type { VideoEvent, VideoFailure, VideoRoom } from "../../video/video-service.ts";
import { PermissionDeniedBox } from "../../widgets/video-container/permission-denied-box.tsx";
import { RoomControls } from "../../widgets/video-container/room-controls.tsx";
import { useVideoSession } from "../../widgets/video-container/use-video-session.ts";
import { VideoStream } from "../../widgets/video-container/video-stream.tsx";
import "../../widgets/video-container/video-room.css";
import "./join-page.css";

/**
 * The participant's join page (public, no sign-in): the link from the visit's mail. Checks the
 * link (join call), shows the visit, and on Join asks for camera and microphone and joins that
 * one room. The participant starts with the microphone on (they pressed Join to talk; a muted
 * start would need explaining to someone who may never have used the portal).
 */
export function JoinPage({ secret }: { secret: string }) {
  const join = useQuery(joinQuery(secret));

  return (
    <div className="page page--narrow join-page">
      {join.isPending ? (
        <>
          <h1 tabIndex={-1}>
            <Trans id="join_heading">Video visit</Trans>
          </h1>
          <p role="status">
            <Trans id="join_checking">Checking your link…</Trans>
          </p>
        </>
      ) : join.isError ? (
        <JoinLinkProblem error={join.error} />
      ) : (
        <JoinRoom secret={secret} join={join.data} />
      )}
    </div>
  );
}

function JoinLinkProblem({ error }: { error: unknown }) {
  const status = error instanceof ApiError ? error.status : undefined;
  return (
    <>
      <h1 tabIndex={-1}>
        {status === 410 ? (
          <Trans id="join_expired_heading">This visit link has expired</Trans>
        ) : status === 404 || status === 400 ? (
          <Trans id="join_unknown_heading">This visit link is not valid</Trans>
        ) : (
          <Trans id="join_unreachable_heading">The visit could not be reached</Trans>
        )}
      </h1>
      <p className="empty-state" role="alert">
        {status === 410 ? (
          <Trans id="join_expired_help">
            A visit link works from 30 minutes before the visit until the visit ends. If your visit is still
            to come, open the link again closer to its time; otherwise ask the study site for a new visit.
          </Trans>
        ) : status === 404 || status === 400 ? (
          <Trans id="join_unknown_help">
            Check that you opened the whole link from the email. If it still does not work, ask the study site
            to send it again.
          </Trans>
        ) : (
          <Trans id="join_unreachable_help">Check your internet connection and reload this page.</Trans>
        )}
      </p>
    </>
  );
}

/** 24-hour wall-clock time, as on the clinician's visits page. */

type Phase = "ready" | "joined" | "left" | "ended";

function JoinRoom({ secret, join }: { secret: string; join: JoinResponse }) {
  const { t } = useLingui();
  const [phase, setPhase] = useState<Phase>("ready");
  const [attempt, setAttempt] = useState(0);
  const [microphoneEnabled, setMicrophone] = useState(true);
  const [cameraEnabled, setCamera] = useState(true);
  const [remotePresent, setRemotePresent] = useState(false);
  const [failure, setFailure] = useState<VideoFailure | null>(null);

  const room = useMemo<VideoRoom | null>(
    () =>
      phase === "joined"
        ? {
            provider: join.provider,
            roomName: join.room_name,
            roomToken: join.roomToken,
            channel: join.channel,
            appId: join.app_id,
            uid: join.uid,
            iceServers: join.ice_servers as RTCIceServer[] | undefined,
            // Inside the link's window the join call answers a fresh token.
            renewToken: () => fetchJoin(secret),
            openSignalSocket,
          }
        : null,
    // attempt: a rejoin is a new room object, so a new service.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [phase, join, secret, attempt],
  );

  const onEvent = (event: VideoEvent) => {
    if (event.type === "peerJoined" || event.type === "remoteStream") setRemotePresent(true);
    if (event.type === "peerLeft") setRemotePresent(false);
    if (event.type === "ended") {
      setRemotePresent(false);
      setPhase("ended");
    }
    if (event.type === "failed") {
      console.warn("video visit failed", event.detail);
      setFailure(event.failure);
    }
  };
  const session = useVideoSession(room, {
    microphoneEnabled,
    cameraEnabled,
    endForEveryoneOnLeave: false,
    onEvent,
  });

  const start = () => {
    setFailure(null);
    setRemotePresent(false);
    setAttempt((value) => value + 1);
    setPhase("joined");
  };

  const when = formatDateTime(join.visit_time);

  const studyName = join.study_name;
  const duration = join.visit_duration;
  return (
    <>
      <h1 tabIndex={-1}>
        <Trans id="join_heading">Video visit</Trans>
      </h1>
      <p className="join-page__visit">
        <Trans id="join_visit_details">
          {studyName}, {when} ({duration} minutes)
        </Trans>
      </p>
      {join.isRecorded ? (
        <p className="join-page__recorded">
          <span aria-hidden="true" className="recording-dot" />
          <Trans id="join_recorded">This visit is recorded.</Trans>
        </p>
      ) : null}

      {phase === "joined" ? (
        <section className="join-room" aria-label={t({ id: "join_room_label", message: "Video visit" })}>
          <div className="visit-room__stage join-room__stage">
            {remotePresent && session.remoteStream ? (
              <VideoStream
                stream={session.remoteStream}
                label={t({ id: "join_remote_video", message: "Clinician's video" })}
                testId="remote-video"
              />
            ) : null}
            <VideoStream
              stream={session.localStream}
              local
              label={t({ id: "visit_room_local_video", message: "Your video" })}
              className={remotePresent && session.remoteStream ? "video-stream--pip" : ""}
              testId="local-video"
            />
            {!remotePresent && !failure ? (
              <p className="visit-room__waiting" role="status">
                <Trans id="join_waiting">Waiting for the clinician to join…</Trans>
              </p>
            ) : null}
          </div>
          {failure ? <PermissionDeniedBox failure={failure} /> : null}
          <RoomControls
            microphoneEnabled={microphoneEnabled}
            cameraEnabled={cameraEnabled}
            onToggleMicrophone={() => {
              setMicrophone(!microphoneEnabled);
              session.setMicrophoneEnabled(!microphoneEnabled);
            }}
            onToggleCamera={() => {
              setCamera(!cameraEnabled);
              session.setCameraEnabled(!cameraEnabled);
            }}
            onHangUp={() => setPhase("left")}
          />
        </section>
      ) : (
        <div className="join-page__start">
          {phase === "left" ? (
            <p role="status">
              <Trans id="join_left">You left the visit.</Trans>
            </p>
          ) : null}
          {phase === "ended" ? (
            <p role="status">
              <Trans id="join_ended">The clinician ended the visit. You can close this page.</Trans>
            </p>
          ) : null}
          {phase === "ready" ? (
            <p>
              <Trans id="join_explain">
                When you press Join, your browser asks to use your camera and microphone: allow both so the
                clinician can see and hear you.
              </Trans>
            </p>
          ) : null}
          {phase !== "ended" ? (
            <button type="button" className="button button--primary" onClick={start}>
              {phase === "left" ? (
                <Trans id="join_rejoin">Join again</Trans>
              ) : (
                <Trans id="join_button">Join the visit</Trans>
              )}
            </button>
          ) : null}
        </div>
      )}
    </>
  );
}

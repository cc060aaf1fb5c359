import { useLingui } from "@lingui/react/macro";
import { RoomIcon } from "./room-icons.tsx";

type Props = {
  microphoneEnabled: boolean;
  cameraEnabled: boolean;
  onToggleMicrophone: () => void;
  onToggleCamera: () => void;
  onHangUp: () => void;
  /** The clinician's room can shrink and expand; the participant's page cannot. */
  size?: { minimized: boolean; onToggle: () => void };
};

/** The room's buttons (spec 01 "Video room"): hang up, mute, camera off, shrink or expand. */
export function RoomControls({
  microphoneEnabled,
  cameraEnabled,
  onToggleMicrophone,
  onToggleCamera,
  onHangUp,
  size,
}: Props) {
  const { t } = useLingui();
  const microphoneLabel = microphoneEnabled
    ? t({ id: "video_mute", message: "Mute" })
    : t({ id: "video_unmute", message: "Unmute" });
  const cameraLabel = cameraEnabled
    ? t({ id: "video_camera_off", message: "Camera off" })
    : t({ id: "video_camera_on", message: "Camera on" });
  const sizeLabel = size?.minimized
    ? t({ id: "video_expand", message: "Expand" })
    : t({ id: "video_shrink", message: "Shrink" });
  const hangUpLabel = t({ id: "video_hang_up", message: "Hang up" });
  return (
    <div
      className="room-controls"
      role="toolbar"
      aria-label={t({ id: "video_controls", message: "Call controls" })}
    >
      <button
        type="button"
        className={`room-controls__button ${microphoneEnabled ? "" : "room-controls__button--off"}`}
        aria-label={microphoneLabel}
        onClick={onToggleMicrophone}
      >
        <RoomIcon name={microphoneEnabled ? "mic" : "micOff"} />
        <span className="room-controls__text">{microphoneLabel}</span>
      </button>
      <button
        type="button"
        className={`room-controls__button ${cameraEnabled ? "" : "room-controls__button--off"}`}
        aria-label={cameraLabel}
        onClick={onToggleCamera}
      >
        <RoomIcon name={cameraEnabled ? "camera" : "cameraOff"} />
        <span className="room-controls__text">{cameraLabel}</span>
      </button>
      {size ? (
        <button
          type="button"
          className="room-controls__button"
          aria-label={sizeLabel}
          onClick={size.onToggle}
        >
          <RoomIcon name={size.minimized ? "expand" : "shrink"} />
          <span className="room-controls__text">{sizeLabel}</span>
        </button>
      ) : null}
      <button
        type="button"
        className="room-controls__button room-controls__button--hang-up"
        aria-label={hangUpLabel}
        onClick={onHangUp}
      >
        <RoomIcon name="hangUp" />
        <span className="room-controls__text">{hangUpLabel}</span>
      </button>
    </div>
  );
}

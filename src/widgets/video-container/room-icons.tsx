/** The room's button icons (decorative: each button has its own label). */
import { ROOM_ICON_PATHS, type IconName } from "./room-icon-paths.ts";

export function RoomIcon({ name }: { name: IconName }) {
  return (
    <svg
      className="room-controls__icon"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={ROOM_ICON_PATHS[name]} fill="currentColor" />
    </svg>
  );
}

/**
 * Where the root layout keeps the video room: a small subscriber to the room store that loads
 * the overlay (and, through it, the video services) only when a room is opened, so the app's
 * first download does not carry the room. It also shows the recorded-visit toast (a widget)
 * after the overlay has gone.
 */
import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { getRoomState, handleRoomEffects, subscribeToRoom } from "../../video/visit-room-store.ts";
import { showRecordedVisitToast } from "../../widgets/toast/recorded-visit-toast.ts";

const VisitRoomOverlay = lazy(() =>
  import("./visit-room-overlay.tsx").then((module) => ({ default: module.VisitRoomOverlay })),
);

export function VisitRoomHost() {
  const state = useSyncExternalStore(subscribeToRoom, getRoomState, getRoomState);

  useEffect(
    () =>
      handleRoomEffects((effect) => {
        if (effect === "showRecordedToast") showRecordedVisitToast();
      }),
    [],
  );

  if (state.status === "closed") return null;
  return (
    <Suspense fallback={null}>
      <VisitRoomOverlay />
    </Suspense>
  );
}

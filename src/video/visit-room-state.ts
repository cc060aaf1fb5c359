/**
 * The visit-room state machine (spec 01 "Video room", the visit-room state and the global UI's
 * overlay): closed → validating → open (expanded) ⇄ minimised → closed by hang-up. Plain data:
 * `transition` returns the next state and the effects the caller runs (the recorded toast), so
 * the rules are testable without React, a clock or a camera.
 *
 * Validation opens the room on either outcome (spec): on success with the answered token and
 * recording flag; on failure with the visit's own token and isRecorded false, in which case the
 * connection will fail and the room shows its permission-denied box.
 *
 * Lives below features and app: the visits page opens the room and reads whether one is open,
 * the overlay in the root layout renders it.
 */

/** What a clinician asks for from a visit row (or a room URL). */
export type RoomRequest = {
  studyId: number;
  siteId: number;
  roomName: string;
  /** The visit's own token, used when validation fails. */
  visitToken: string | null;
  /** What the row knows about recording until validation answers. */
  isRecorded: boolean;
  /** Whom the visit is with, as the row names them (unknown when the room opens from its URL alone). */
  participantName?: string;
};

/** How to reach the video service: the validate_room answer (or its fallback). */
export type RoomConnection = {
  provider: "builtin" | "agora" | "unknown";
  roomToken: string;
  channel: string;
  appId?: string;
  uid?: number;
  iceServers?: RTCIceServer[];
  expiresAt?: string;
};

export type RoomFailure = "permission" | "connection";

export type OpenRoom = {
  status: "open";
  request: RoomRequest;
  connection: RoomConnection;
  roomToken: string;
  isRecorded: boolean;
  minimize: boolean;
  /** The microphone starts muted, the camera on. */
  microphoneEnabled: boolean;
  cameraEnabled: boolean;
  /** Whether the other side is in the room (local video goes picture-in-picture). */
  remotePresent: boolean;
  failure: RoomFailure | null;
};

export type RoomState = { status: "closed" } | { status: "validating"; request: RoomRequest } | OpenRoom;

export type RoomEvent =
  | { type: "open"; request: RoomRequest }
  | { type: "validated"; connection: RoomConnection; isRecorded: boolean }
  | { type: "validationFailed" }
  | { type: "minimize" }
  | { type: "expand" }
  | { type: "toggleSize" }
  | { type: "toggleMicrophone" }
  | { type: "toggleCamera" }
  | { type: "remoteJoined" }
  | { type: "remoteLeft" }
  | { type: "failed"; failure: RoomFailure }
  | { type: "hangUp" };

export type RoomEffect = "showRecordedToast";

export const CLOSED_ROOM: RoomState = { status: "closed" };

function opened(request: RoomRequest, connection: RoomConnection, isRecorded: boolean): OpenRoom {
  return {
    status: "open",
    request,
    connection,
    roomToken: connection.roomToken,
    isRecorded,
    minimize: false,
    microphoneEnabled: false,
    cameraEnabled: true,
    remotePresent: false,
    failure: null,
  };
}

export function transition(state: RoomState, event: RoomEvent): { state: RoomState; effects: RoomEffect[] } {
  const same = { state, effects: [] as RoomEffect[] };
  const to = (next: RoomState) => ({ state: next, effects: [] as RoomEffect[] });
  switch (event.type) {
    case "open":
      // One room at a time: the visits page disables its buttons while one is open.
      return state.status === "closed" ? to({ status: "validating", request: event.request }) : same;
    case "validated":
      return state.status === "validating"
        ? to(opened(state.request, event.connection, event.isRecorded))
        : same;
    case "validationFailed":
      if (state.status !== "validating") return same;
      return to(
        opened(
          state.request,
          {
            provider: "unknown",
            roomToken: state.request.visitToken ?? "",
            channel: state.request.roomName,
          },
          false,
        ),
      );
    case "hangUp":
      if (state.status === "closed") return same;
      return {
        state: CLOSED_ROOM,
        effects: state.status === "open" && state.isRecorded ? ["showRecordedToast"] : [],
      };
  }
  if (state.status !== "open") return same;
  switch (event.type) {
    case "minimize":
      return to({ ...state, minimize: true });
    case "expand":
      return to({ ...state, minimize: false });
    case "toggleSize":
      return to({ ...state, minimize: !state.minimize });
    case "toggleMicrophone":
      return to({ ...state, microphoneEnabled: !state.microphoneEnabled });
    case "toggleCamera":
      return to({ ...state, cameraEnabled: !state.cameraEnabled });
    case "remoteJoined":
      return to({ ...state, remotePresent: true });
    case "remoteLeft":
      return to({ ...state, remotePresent: false });
    case "failed":
      return to({ ...state, failure: event.failure });
  }
}

/** Whether a room is open (or opening): the visits page's buttons are disabled meanwhile. */
export function isRoomActive(state: RoomState): boolean {
  return state.status !== "closed";
}

/** Local video is picture-in-picture when the other side is present. */
export function isLocalPictureInPicture(state: OpenRoom): boolean {
  return state.remotePresent;
}

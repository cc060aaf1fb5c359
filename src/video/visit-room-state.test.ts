import { describe, expect, it } from "vitest";
import {
  CLOSED_ROOM,
  isLocalPictureInPicture,
  isRoomActive,
  transition,
  type OpenRoom,
  type RoomEvent,
  type RoomRequest,
  type RoomState,
} from "./visit-room-state.ts";

const request: RoomRequest = {
  studyId: 102,
  siteId: 1021,
  roomName: "scz-214-room-1",
  visitToken: "visit-token",
  isRecorded: true,
};
const connection = { provider: "builtin" as const, roomToken: "ticket", channel: "scz-214-room-1" };

function run(events: RoomEvent[], from: RoomState = CLOSED_ROOM) {
  let state = from;
  const effects: string[] = [];
  for (const event of events) {
    const result = transition(state, event);
    state = result.state;
    effects.push(...result.effects);
  }
  return { state, effects };
}

const openRoom = (isRecorded = false) =>
  run([
    { type: "open", request },
    { type: "validated", connection, isRecorded },
  ]).state as OpenRoom;

describe("visit room", () => {
  it("validates before it opens, then opens expanded with the microphone muted and the camera on", () => {
    const validating = run([{ type: "open", request }]).state;
    expect(validating).toEqual({ status: "validating", request });
    expect(isRoomActive(validating)).toBe(true);
    const room = openRoom(true);
    expect(room).toMatchObject({
      status: "open",
      roomToken: "ticket",
      isRecorded: true,
      minimize: false,
      microphoneEnabled: false,
      cameraEnabled: true,
      failure: null,
    });
  });

  it("opens on a failed validation too, with the visit's own token and not recorded", () => {
    const { state } = run([{ type: "open", request }, { type: "validationFailed" }]);
    expect(state).toMatchObject({
      status: "open",
      roomToken: "visit-token",
      isRecorded: false,
      connection: { provider: "unknown", roomToken: "visit-token", channel: "scz-214-room-1" },
    });
  });

  it("keeps the first room when another open is asked for", () => {
    const room = openRoom();
    const other = { ...request, roomName: "other" };
    expect(run([{ type: "open", request: other }], room).state).toBe(room);
  });

  it.each([
    { events: ["minimize"], minimize: true },
    { events: ["minimize", "expand"], minimize: false },
    { events: ["toggleSize"], minimize: true },
    { events: ["toggleSize", "toggleSize"], minimize: false },
  ] as const)("shrinks and expands: $events → minimize $minimize", ({ events, minimize }) => {
    const { state } = run(
      events.map((type) => ({ type })),
      openRoom(),
    );
    expect((state as OpenRoom).minimize).toBe(minimize);
  });

  it("mute and camera off toggle", () => {
    const { state } = run([{ type: "toggleMicrophone" }, { type: "toggleCamera" }], openRoom());
    expect(state).toMatchObject({ microphoneEnabled: true, cameraEnabled: false });
  });

  it("puts the local video picture-in-picture only while the other side is present", () => {
    const room = openRoom();
    expect(isLocalPictureInPicture(room)).toBe(false);
    const joined = run([{ type: "remoteJoined" }], room).state as OpenRoom;
    expect(isLocalPictureInPicture(joined)).toBe(true);
    const left = run([{ type: "remoteLeft" }], joined).state as OpenRoom;
    expect(isLocalPictureInPicture(left)).toBe(false);
  });

  it("records a connection or permission failure for the permission-denied box", () => {
    expect(run([{ type: "failed", failure: "permission" }], openRoom()).state).toMatchObject({
      failure: "permission",
    });
  });

  it("closes on hang-up, minimised or not, and asks for the recorded toast only for a recorded room", () => {
    expect(run([{ type: "minimize" }, { type: "hangUp" }], openRoom(true))).toEqual({
      state: CLOSED_ROOM,
      effects: ["showRecordedToast"],
    });
    expect(run([{ type: "hangUp" }], openRoom(false))).toEqual({ state: CLOSED_ROOM, effects: [] });
  });

  it("a room whose validation failed is not recorded, so no toast", () => {
    expect(
      run([{ type: "open", request }, { type: "validationFailed" }, { type: "hangUp" }]).effects,
    ).toEqual([]);
  });

  it("ignores room controls while closed", () => {
    for (const type of ["minimize", "expand", "toggleMicrophone", "remoteJoined", "hangUp"] as const) {
      expect(transition(CLOSED_ROOM, { type }).state).toBe(CLOSED_ROOM);
    }
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { VideoEvent, VideoRoom } from "./video-service.ts";

/**
 * A fake of the agora-rtc-sdk-ng module at its boundary: the client records calls and lets the
 * test fire the SDK's events; the tracks record mute and enable calls.
 */
const fake = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => unknown;
  const makeTrack = (kind: string) => ({
    kind,
    muted: false,
    enabled: true,
    closed: false,
    played: false,
    setMuted: vi.fn(async function (this: { muted: boolean }, muted: boolean) {
      this.muted = muted;
    }),
    setEnabled: vi.fn(async function (this: { enabled: boolean }, enabled: boolean) {
      this.enabled = enabled;
    }),
    close: vi.fn(function (this: { closed: boolean }) {
      this.closed = true;
    }),
    play: vi.fn(function (this: { played: boolean }) {
      this.played = true;
    }),
    getMediaStreamTrack: () => ({ kind, id: `${kind}-track` }),
  });
  const state = {
    handlers: new Map<string, Handler>(),
    client: null as null | Record<string, ReturnType<typeof vi.fn>>,
    microphone: makeTrack("audio"),
    camera: makeTrack("video"),
    createTracks: vi.fn(),
    createClient: vi.fn(),
    makeTrack,
  };
  return state;
});

vi.mock("agora-rtc-sdk-ng", () => ({
  default: {
    createClient: fake.createClient,
    createMicrophoneAndCameraTracks: fake.createTracks,
  },
}));

class FakeMediaStream {
  tracks: unknown[];
  constructor(tracks: unknown[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  addTrack(track: unknown) {
    this.tracks.push(track);
  }
  removeTrack(track: unknown) {
    this.tracks = this.tracks.filter((candidate) => candidate !== track);
  }
}

const room: VideoRoom = {
  // Agora signals through its own servers: a socket of ours would be a mistake.
  openSignalSocket: () => {
    throw new Error("the Agora service opens no signalling socket of ours");
  },
  provider: "agora",
  roomName: "scz-room",
  roomToken: "rtc-token-1",
  channel: "scz-room",
  appId: "app-id",
  uid: 42,
  renewToken: vi.fn(async () => ({ roomToken: "rtc-token-2" })),
};

async function joinedService(overrides: Partial<VideoRoom> = {}) {
  const { createAgoraService } = await import("./agora.ts");
  const service = createAgoraService({ ...room, ...overrides });
  const events: VideoEvent[] = [];
  service.on((event) => events.push(event));
  await service.join({ microphoneEnabled: false, cameraEnabled: true });
  return { service, events };
}

beforeEach(() => {
  vi.stubGlobal("MediaStream", FakeMediaStream);
  fake.handlers.clear();
  fake.microphone = fake.makeTrack("audio");
  fake.camera = fake.makeTrack("video");
  fake.createTracks.mockImplementation(async () => [fake.microphone, fake.camera]);
  fake.createClient.mockImplementation(() => {
    fake.client = {
      on: vi.fn((event: string, handler: (...args: unknown[]) => unknown) =>
        fake.handlers.set(event, handler),
      ),
      join: vi.fn(async () => 42),
      publish: vi.fn(async () => {}),
      subscribe: vi.fn(async () => {}),
      renewToken: vi.fn(async () => {}),
      leave: vi.fn(async () => {}),
      removeAllListeners: vi.fn(),
    };
    return fake.client;
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe("Agora video service", () => {
  it("loads the SDK only when it joins", async () => {
    const { createAgoraService } = await import("./agora.ts");
    createAgoraService(room);
    expect(fake.createClient).not.toHaveBeenCalled();
  });

  it("joins the channel with the app id, the server's token and its uid, and publishes both tracks", async () => {
    const { events } = await joinedService();
    expect(fake.createClient).toHaveBeenCalledWith({ mode: "rtc", codec: "vp8" });
    expect(fake.client?.join).toHaveBeenCalledWith("app-id", "scz-room", "rtc-token-1", 42);
    expect(fake.client?.publish).toHaveBeenCalledWith([fake.microphone, fake.camera]);
    expect(events[0]?.type).toBe("localStream");
  });

  it("starts with the microphone muted and the camera on", async () => {
    await joinedService();
    expect(fake.microphone.muted).toBe(true);
    expect(fake.camera.enabled).toBe(true);
  });

  it("mute and camera off go to the tracks", async () => {
    const { service } = await joinedService();
    await service.setMicrophoneEnabled(true);
    expect(fake.microphone.muted).toBe(false);
    await service.setCameraEnabled(false);
    expect(fake.camera.enabled).toBe(false);
  });

  it("renews the token through the renew call on token-privilege-will-expire", async () => {
    await joinedService();
    await fake.handlers.get("token-privilege-will-expire")?.();
    await vi.waitFor(() => expect(fake.client?.renewToken).toHaveBeenCalledWith("rtc-token-2"));
    expect(room.renewToken).toHaveBeenCalledTimes(1);
  });

  it("reports a failed renewal as a connection failure", async () => {
    const renewToken = vi.fn(async () => {
      throw new Error("410");
    });
    const { events } = await joinedService({ renewToken });
    await fake.handlers.get("token-privilege-will-expire")?.();
    await vi.waitFor(() => expect(events.some((event) => event.type === "failed")).toBe(true));
    expect(events.at(-1)).toMatchObject({ type: "failed", failure: "connection" });
  });

  it("subscribes to the other side: video becomes the remote stream, audio plays", async () => {
    const { events } = await joinedService();
    const videoTrack = fake.makeTrack("video");
    const audioTrack = fake.makeTrack("audio");
    const user = { uid: 7, videoTrack, audioTrack };
    await fake.handlers.get("user-joined")?.(user);
    await fake.handlers.get("user-published")?.(user, "video");
    await fake.handlers.get("user-published")?.(user, "audio");
    expect(fake.client?.subscribe).toHaveBeenCalledWith(user, "video");
    expect(fake.client?.subscribe).toHaveBeenCalledWith(user, "audio");
    expect(audioTrack.played).toBe(true);
    const remote = events.find((event) => event.type === "remoteStream");
    expect(remote && "stream" in remote && remote.stream.getTracks()).toEqual([
      { kind: "video", id: "video-track" },
    ]);
    expect(events.map((event) => event.type)).toContain("peerJoined");
    await fake.handlers.get("user-left")?.(user);
    expect(events.at(-1)).toEqual({ type: "peerLeft" });
  });

  it("reports a refused camera as a permission failure and does not join", async () => {
    fake.createTracks.mockImplementation(async () => {
      throw Object.assign(new Error("denied"), { code: "PERMISSION_DENIED" });
    });
    const { events } = await joinedService();
    expect(events).toEqual([expect.objectContaining({ type: "failed", failure: "permission" })]);
    expect(fake.client?.join).not.toHaveBeenCalled();
  });

  it("reports a refused join (a bad token) as a connection failure", async () => {
    fake.createClient.mockImplementationOnce(() => {
      fake.client = {
        on: vi.fn((event: string, handler: (...args: unknown[]) => unknown) =>
          fake.handlers.set(event, handler),
        ),
        join: vi.fn(async () => {
          throw Object.assign(new Error("invalid token"), { code: "CAN_NOT_GET_GATEWAY_SERVER" });
        }),
        publish: vi.fn(),
        subscribe: vi.fn(),
        renewToken: vi.fn(),
        leave: vi.fn(async () => {}),
        removeAllListeners: vi.fn(),
      };
      return fake.client;
    });
    const { events } = await joinedService();
    expect(events.at(-1)).toMatchObject({ type: "failed", failure: "connection" });
  });

  it("leaves: closes both tracks and the client, and reports nothing after", async () => {
    const { service, events } = await joinedService();
    await service.leave();
    expect(fake.microphone.closed).toBe(true);
    expect(fake.camera.closed).toBe(true);
    expect(fake.client?.leave).toHaveBeenCalled();
    const before = events.length;
    fake.handlers.get("connection-state-change")?.("DISCONNECTED", "CONNECTED", "NETWORK_ERROR");
    expect(events.length).toBe(before);
  });
});

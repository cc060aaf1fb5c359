import { describe, expect, it } from "vitest";
import { readEnv } from "../env.ts";
import { providerOf, videoSettingsFrom } from "./video-settings.ts";

describe("the video settings of the environment", () => {
  it("default to the built-in service with no ICE servers", () => {
    const settings = videoSettingsFrom(readEnv({}));
    expect(settings).toEqual({ agora: undefined, iceServers: [] });
    expect(providerOf(settings)).toBe("builtin");
  });

  it("use Agora when both Agora variables are set", () => {
    const settings = videoSettingsFrom(readEnv({ AGORA_APP_ID: "app", AGORA_APP_CERTIFICATE: "cert" }));
    expect(settings.agora).toEqual({ appId: "app", appCertificate: "cert" });
    expect(providerOf(settings)).toBe("agora");
  });

  it("refuse half an Agora account", () => {
    expect(() => readEnv({ AGORA_APP_ID: "app" })).toThrow(/AGORA_APP_CERTIFICATE: set both/);
    expect(() => readEnv({ AGORA_APP_CERTIFICATE: "cert" })).toThrow(/AGORA_APP_ID: set both/);
  });

  it("read VIDEO_ICE_SERVERS as a JSON array of ICE servers", () => {
    const servers = [
      { urls: "stun:turn.example.org:3478" },
      { urls: ["turn:turn.example.org:3478", "turns:turn.example.org:5349"], username: "u", credential: "p" },
    ];
    expect(videoSettingsFrom(readEnv({ VIDEO_ICE_SERVERS: JSON.stringify(servers) })).iceServers).toEqual(
      servers,
    );
    expect(() => readEnv({ VIDEO_ICE_SERVERS: "stun:x" })).toThrow(/VIDEO_ICE_SERVERS: must be a JSON array/);
    expect(() => readEnv({ VIDEO_ICE_SERVERS: '[{"url":"stun:x"}]' })).toThrow(
      /VIDEO_ICE_SERVERS: must be a JSON array/,
    );
  });
});

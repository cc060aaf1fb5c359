/**
 * Which video service virtual visits use, from the environment: Agora when the site has an Agora
 * account (AGORA_APP_ID and AGORA_APP_CERTIFICATE), otherwise the built-in peer-to-peer WebRTC
 * service with signalling through this server, using the STUN/TURN servers of VIDEO_ICE_SERVERS.
 */
import type { IceServer, VideoProvider } from "../../core/contracts/visits.ts";
import type { ServerEnv } from "../env.ts";

export type AgoraAccount = { appId: string; appCertificate: string };

export type VideoSettings = {
  /** Set: rooms are Agora channels. */
  agora?: AgoraAccount;
  /** For the built-in service's RTCPeerConnection; [] connects devices on one network only. */
  iceServers: IceServer[];
};

export const DEFAULT_VIDEO_SETTINGS: VideoSettings = { iceServers: [] };

export function videoSettingsFrom(env: ServerEnv): VideoSettings {
  return {
    agora:
      env.AGORA_APP_ID && env.AGORA_APP_CERTIFICATE
        ? { appId: env.AGORA_APP_ID, appCertificate: env.AGORA_APP_CERTIFICATE }
        : undefined,
    iceServers: env.VIDEO_ICE_SERVERS,
  };
}

export function providerOf(settings: VideoSettings): VideoProvider {
  return settings.agora ? "agora" : "builtin";
}

/**
 * Agora RTC tokens, made with Agora's own token package: a publisher token for one channel and
 * one uid, valid for ROOM_TOKEN_TTL_S; the client renews it (renew_token) before it expires.
 */
import agoraToken from "agora-token";
import type { AgoraAccount } from "./video-settings.ts";

const { RtcRole, RtcTokenBuilder } = agoraToken;

/** Participants' uids sit above every clinician's (user ids are below 2^31). */
const PARTICIPANT_UID_BASE = 2 ** 31;

/** The Agora uid a token is issued for: the room's two sides never share one. */
export function agoraUid(
  who: { role: "clinician"; userId: number } | { role: "participant"; participantId: number },
) {
  return who.role === "clinician" ? who.userId : PARTICIPANT_UID_BASE + who.participantId;
}

export function buildAgoraRtcToken(
  account: AgoraAccount,
  request: { channel: string; uid: number; ttlSeconds: number },
): string {
  return RtcTokenBuilder.buildTokenWithUid(
    account.appId,
    account.appCertificate,
    request.channel,
    request.uid,
    RtcRole.PUBLISHER,
    request.ttlSeconds,
    request.ttlSeconds,
  );
}

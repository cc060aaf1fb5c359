import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { agoraUid, buildAgoraRtcToken } from "./agora-token.ts";

// Agora's own reader of its tokens (CommonJS): the token is read back rather than trusted.
const require = createRequire(import.meta.url);
const { AccessToken2, ServiceRtc, kRtcServiceType } = require("agora-token/src/AccessToken2.js") as {
  AccessToken2: new (...args: unknown[]) => {
    from_string: (token: string) => boolean;
    appId: Buffer;
    issueTs: number;
    expire: number;
    getServices: (type: number) => {
      __channel_name: Buffer | string;
      __uid: Buffer | string;
      __privileges: Record<number, number>;
    }[];
  };
  ServiceRtc: {
    kPrivilegeJoinChannel: number;
    kPrivilegePublishAudioStream: number;
    kPrivilegePublishVideoStream: number;
  };
  kRtcServiceType: number;
};

const ACCOUNT = {
  appId: "970CA35de60c44645bbae8a215061b33",
  appCertificate: "5CFd2fd1755d40ecb72977518be15d3b",
};

function read(token: string) {
  const decoded = new AccessToken2("", "", 0, 0);
  expect(decoded.from_string(token)).toBe(true);
  const [rtc] = decoded.getServices(kRtcServiceType);
  return { decoded, rtc: rtc! };
}

describe("buildAgoraRtcToken", () => {
  it("is a publisher token for the channel and uid, expiring after the given seconds", () => {
    const token = buildAgoraRtcToken(ACCOUNT, { channel: "visit-abc_DEF-123", uid: 42, ttlSeconds: 3600 });
    const { decoded, rtc } = read(token);
    expect(String(decoded.appId)).toBe(ACCOUNT.appId);
    expect(decoded.expire).toBe(3600);
    expect(Math.abs(decoded.issueTs - Date.now() / 1000)).toBeLessThan(5);
    expect(String(rtc.__channel_name)).toBe("visit-abc_DEF-123");
    expect(String(rtc.__uid)).toBe("42");
    expect(rtc.__privileges[ServiceRtc.kPrivilegeJoinChannel]).toBe(3600);
    expect(rtc.__privileges[ServiceRtc.kPrivilegePublishAudioStream]).toBe(3600);
    expect(rtc.__privileges[ServiceRtc.kPrivilegePublishVideoStream]).toBe(3600);
  });

  it("is signed with the certificate: another certificate makes another token", () => {
    const request = { channel: "visit-x", uid: 7, ttlSeconds: 600 };
    const mine = buildAgoraRtcToken(ACCOUNT, request);
    const theirs = buildAgoraRtcToken({ ...ACCOUNT, appCertificate: "0".repeat(32) }, request);
    expect(read(mine).rtc.__channel_name.toString()).toBe(read(theirs).rtc.__channel_name.toString());
    expect(mine).not.toBe(theirs);
  });
});

describe("agoraUid", () => {
  it("gives a clinician their user id and a participant a uid above every user id", () => {
    expect(agoraUid({ role: "clinician", userId: 5 })).toBe(5);
    expect(agoraUid({ role: "participant", participantId: 5 })).toBe(2 ** 31 + 5);
    // The largest ids still fit Agora's 32-bit unsigned uid.
    expect(agoraUid({ role: "participant", participantId: 2 ** 31 - 1 })).toBe(2 ** 32 - 1);
  });
});

/**
 * Virtual visits (spec 01 "Virtual visits page", "Video room", section 7): the calls of
 * the visits list, the room validation and renewal, the participant's join link and the
 * coordinator's scheduling, and the messages of the built-in video service's signalling
 * WebSocket. The server validates with these schemas; the client types its calls with them.
 * Field names are the spec's (and the plan's for the calls the spec does not name); timestamps
 * are ISO strings with an offset; durations are whole minutes.
 */
import * as z from "zod/mini";
import { ROOM_NAME_PATTERN } from "./room-name.ts";
import { isoMoment, rowId } from "./input-bounds.ts";

const timestamp = z.iso.datetime({ offset: true });

/** Room names are made by the server: letters, digits, '-' and '_' (a valid Agora channel). */
export const roomName = z
  .string({ error: "roomName is required" })
  .check(z.regex(ROOM_NAME_PATTERN, "roomName must be 1 to 64 letters, digits, '-' or '_'"));

/** The longest visit a coordinator may schedule, in minutes (a working day). */
export const VISIT_DURATION_MAX = 480;
/** The join link opens this long before visit_time, and stays open until the visit ends. */
export const JOIN_OPENS_BEFORE_MIN = 30;
/** An ad hoc visit's join link is valid this long from the visit's creation. */
export const ADHOC_JOIN_VALID_H = 24;
/** Lifetime of a room token (Agora RTC token or built-in room ticket): renew before it ends. */
export const ROOM_TOKEN_TTL_S = 3600;

/** The video service a room uses: the server decides (Agora when it has an Agora account). */
export const VIDEO_PROVIDERS = ["builtin", "agora"] as const;
export const videoProvider = z.enum(VIDEO_PROVIDERS);
export type VideoProvider = z.infer<typeof videoProvider>;

/** One entry of RTCPeerConnection's iceServers (STUN or TURN). */
export const iceServer = z.object({
  urls: z.union([
    z.string().check(z.minLength(1)),
    z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  ]),
  username: z.optional(z.string()),
  credential: z.optional(z.string()),
});
export type IceServer = z.infer<typeof iceServer>;
export const iceServers = z.array(iceServer);

// ---------------------------------------------------------------------------------------------
// GET /control/studies/{studyId}/sites/{siteId}/clinro_visits
// Only visits of that study and site that have not ended (visit_time + visit_duration > now; ad
// hoc visits always), ordered by visit_time. 403 outside the user's permissions and for a witness.

export const visitsParams = z.object({ studyId: rowId("studyId"), siteId: rowId("siteId") });
export type VisitsParams = z.infer<typeof visitsParams>;

export const visit = z.object({
  id: z.number().check(z.int()),
  is_adhoc: z.boolean(),
  is_recorded: z.boolean(),
  fname: z.string(),
  lname: z.string(),
  participant_id: z.number().check(z.int()),
  /** '' when the participant has no email address. */
  participant_email: z.string(),
  room_name: z.string(),
  /** ISO with offset: the start. */
  visit_time: timestamp,
  /** Minutes. */
  visit_duration: z.number().check(z.int(), z.positive()),
  /** The visit's own room token; null when the visit has no video room (the row offers a mail). */
  token: z.nullable(z.string()),
});
export type Visit = z.infer<typeof visit>;

export const visitsResponse = z.object({ visits: z.array(visit) });
export type VisitsResponse = z.infer<typeof visitsResponse>;

// ---------------------------------------------------------------------------------------------
// GET  /control/studies/{studyId}/room_name/{roomName}/validate_room
// POST /control/studies/{studyId}/room_name/{roomName}/renew_token   (no body)
// 403 outside the user's permissions (the visit's site) and for a witness; 404 for a room not in
// the study; 409 visit_without_room when the visit has no token; 410 visit_ended after its end.
// The client opens the room on either outcome (spec): on an error it opens with the visit's own
// token and isRecorded false, and the connection failure shows the permission-denied box.

export const roomParams = z.object({ studyId: rowId("studyId"), roomName });
export type RoomParams = z.infer<typeof roomParams>;

/** What a room needs to connect, for either provider. */
export const roomConnection = z.object({
  provider: videoProvider,
  /** Agora: a short-lived RTC token; builtin: a short-lived room ticket for the first WebSocket message. */
  roomToken: z.string(),
  /** Agora channel name; builtin: the room name to send in the join message. */
  channel: z.string(),
  /** Agora only: the App ID the SDK joins with. */
  app_id: z.optional(z.string()),
  /** Agora only: the uid the token was issued for (join with exactly this uid). */
  uid: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** When roomToken stops being accepted (renew before). */
  expires_at: timestamp,
  /** Builtin only: STUN/TURN servers for RTCPeerConnection ([] works on one network). */
  ice_servers: z.optional(iceServers),
});
export type RoomConnection = z.infer<typeof roomConnection>;

export const validateRoomResponse = z.extend(roomConnection, { isRecorded: z.boolean() });
export type ValidateRoomResponse = z.infer<typeof validateRoomResponse>;
export const renewTokenResponse = validateRoomResponse;
export type RenewTokenResponse = ValidateRoomResponse;

// ---------------------------------------------------------------------------------------------
// GET /control/visits/join/{secret}   (public: the participant has no account)
// 404 unknown secret; 410 join_link_expired outside the window (JOIN_OPENS_BEFORE_MIN before
// visit_time to the visit's end; ad hoc: ADHOC_JOIN_VALID_H from creation). Calling it again
// inside the window answers a fresh roomToken (the participant's renewal).

/** 32 random bytes, base64url: 43 characters. */
export const JOIN_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const joinParams = z.object({
  secret: z.string().check(z.regex(JOIN_SECRET_PATTERN, "secret is not a join link secret")),
});
export type JoinParams = z.infer<typeof joinParams>;

export const joinResponse = z.extend(roomConnection, {
  room_name: z.string(),
  study_name: z.string(),
  visit_time: timestamp,
  visit_duration: z.number().check(z.int(), z.positive()),
  isRecorded: z.boolean(),
});
export type JoinResponse = z.infer<typeof joinResponse>;

/** The public path of the participant's join page for a secret (the link in the mail). */
export function joinPagePath(secret: string) {
  return `/join/${secret}`;
}

// ---------------------------------------------------------------------------------------------
// POST /control/studies/{studyId}/sites/{siteId}/clinro_visits   (coordinator, role 16)
// Idempotency-Key. Schedules a visit for a participant of that site, answers the visit (201) and
// mails the participant the join link. 400 when the visit would already have ended; 404 for a
// participant not of that site.

export const scheduleVisitRequest = z.object({
  participant_id: rowId("participant_id"),
  visit_time: isoMoment({ error: "visit_time must be an ISO date and time with an offset" }),
  visit_duration: z
    .number({ error: "visit_duration must be a number of minutes" })
    .check(
      z.int("visit_duration must be a whole number of minutes"),
      z.minimum(1, "visit_duration must be at least 1 minute"),
      z.maximum(VISIT_DURATION_MAX, `visit_duration must be at most ${VISIT_DURATION_MAX} minutes`),
    ),
  is_recorded: z._default(z.boolean(), false),
  is_adhoc: z._default(z.boolean(), false),
});
export type ScheduleVisitRequest = z.input<typeof scheduleVisitRequest>;
export const scheduleVisitResponse = visit;
export type ScheduleVisitResponse = Visit;

// ---------------------------------------------------------------------------------------------
// WebSocket GET /control/visits/signal: the built-in provider's signalling. Browsers cannot set
// headers on a WebSocket, so the first message authenticates with the room ticket (never a token
// in the URL). A room holds at most SIGNAL_ROOM_MAX_PEERS peers. Every message is JSON, at most
// SIGNAL_MESSAGE_MAX_BYTES; anything else is answered with an error and the socket closes.

export const SIGNAL_PATH = "/control/visits/signal";
export const SIGNAL_MESSAGE_MAX_BYTES = 64 * 1024;
export const SIGNAL_ROOM_MAX_PEERS = 2;
/** The server closes a socket that has not sent its join message within this time. */
export const SIGNAL_JOIN_TIMEOUT_MS = 10_000;

export const VISIT_ROLES = ["clinician", "participant"] as const;
export const visitRole = z.enum(VISIT_ROLES);
export type VisitRole = z.infer<typeof visitRole>;

/** Server-made peer ids (UUIDs). */
export const peerId = z.string().check(z.minLength(1), z.maxLength(64));

export const sessionDescription = z.object({
  type: z.enum(["offer", "answer", "pranswer", "rollback"]),
  sdp: z.optional(z.string().check(z.maxLength(60_000))),
});
export const iceCandidate = z.object({
  candidate: z.optional(z.string().check(z.maxLength(4096))),
  sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
  sdpMLineIndex: z.optional(z.nullable(z.number().check(z.int(), z.nonnegative()))),
  usernameFragment: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
});
export const signalData = z.object({
  description: z.optional(sessionDescription),
  /** null: end of candidates. */
  candidate: z.optional(z.nullable(iceCandidate)),
});
export type SignalData = z.infer<typeof signalData>;

// client → server
export const signalJoin = z.object({
  type: z.literal("join"),
  room: roomName,
  ticket: z.string().check(z.minLength(1), z.maxLength(4096)),
});
export const signalSend = z.object({ type: z.literal("signal"), to: peerId, data: signalData });
/** The clinician hangs up for everyone; from a participant it is refused (not_allowed). */
export const signalEnd = z.object({ type: z.literal("end") });
export const clientSignalMessage = z.discriminatedUnion("type", [signalJoin, signalSend, signalEnd]);
export type ClientSignalMessage = z.infer<typeof clientSignalMessage>;

// server → client
export const signalPeer = z.object({ peer_id: peerId, role: visitRole });
export type SignalPeer = z.infer<typeof signalPeer>;
export const signalJoined = z.object({
  type: z.literal("joined"),
  peer_id: peerId,
  role: visitRole,
  /** The others already in the room. */
  peers: z.array(signalPeer),
});
export const signalPeerJoined = z.object({
  type: z.literal("peer-joined"),
  peer_id: peerId,
  role: visitRole,
});
export const signalPeerLeft = z.object({ type: z.literal("peer-left"), peer_id: peerId });
export const signalReceived = z.object({ type: z.literal("signal"), from: peerId, data: signalData });
export const signalEnded = z.object({ type: z.literal("ended") });

export const SIGNAL_ERROR_CODES = [
  /** Not JSON, not one of the messages, or larger than SIGNAL_MESSAGE_MAX_BYTES. */
  "bad_message",
  /** The first message was not a join, or a join came twice. */
  "not_joined",
  /** The ticket is not one the server signed, or names another room. */
  "bad_ticket",
  "ticket_expired",
  /** The room already holds SIGNAL_ROOM_MAX_PEERS peers. */
  "room_full",
  /** A participant sent end. */
  "not_allowed",
  /** No join message within SIGNAL_JOIN_TIMEOUT_MS. */
  "join_timeout",
  /** More messages than a peer connection needs (over 200 at once, or 50 a second after). */
  "rate_limited",
] as const;
export const signalErrorCode = z.enum(SIGNAL_ERROR_CODES);
export type SignalErrorCode = z.infer<typeof signalErrorCode>;
/** Sent before the server closes the socket. */
export const signalError = z.object({
  type: z.literal("error"),
  code: signalErrorCode,
  message: z.string(),
});

export const serverSignalMessage = z.discriminatedUnion("type", [
  signalJoined,
  signalPeerJoined,
  signalPeerLeft,
  signalReceived,
  signalEnded,
  signalError,
]);
export type ServerSignalMessage = z.infer<typeof serverSignalMessage>;

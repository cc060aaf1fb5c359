/**
 * The built-in video service: peer-to-peer WebRTC between the clinician and the participant,
 * with the portal's own server as the signalling channel (WebSocket /control/visits/signal, the
 * messages of core/contracts/visits.ts) and STUN/TURN servers from the room ticket's answer.
 *
 * Owns, for one room: the camera and microphone stream, the WebSocket and the peer connection
 * (one at a time: a room holds two peers). Negotiation is "perfect negotiation" (W3C WebRTC
 * example): the peer that joins last offers, the one already there answers; when both offer
 * later (a renegotiation), the participant (polite) rolls back and the clinician (impolite)
 * ignores the other's offer.
 *
 * The signalling socket is opened by src/api/visits-api.ts (openSignalSocket, the network's one
 * door) and handed over with the room; it authenticates with its first message, and its errors
 * are the room's own.
 */
import {
  serverSignalMessage,
  type ClientSignalMessage,
  type ServerSignalMessage,
  type SignalData,
  type VisitRole,
} from "../../core/contracts/visits.ts";
import {
  createEmitter,
  isPermissionError,
  type JoinOptions,
  type VideoRoom,
  type VideoService,
} from "./video-port.ts";

/** What the end-to-end tests read (page.evaluate): the sent tracks' kind and enabled flag. */
export type SenderTrackState = { kind: string; enabled: boolean; readyState: string };
declare global {
  var __clinroVisitSenders: (() => SenderTrackState[]) | undefined;
}

type Peer = {
  id: string;
  connection: RTCPeerConnection;
  makingOffer: boolean;
  ignoreOffer: boolean;
  remoteStream: MediaStream;
};

export function createBuiltinService(room: VideoRoom): VideoService {
  const events = createEmitter();
  let socket: WebSocket | null = null;
  let localStream: MediaStream | null = null;
  let peer: Peer | null = null;
  let role: VisitRole | null = null;
  let left = false;

  const send = (message: ClientSignalMessage) => {
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const fail = (failure: "permission" | "connection", detail: string) => {
    if (left) return;
    events.emit({ type: "failed", failure, detail });
  };

  function closePeer() {
    if (!peer) return;
    peer.connection.onicecandidate = null;
    peer.connection.ontrack = null;
    peer.connection.onnegotiationneeded = null;
    peer.connection.onconnectionstatechange = null;
    peer.connection.close();
    peer = null;
  }

  function openPeer(peerId: string): Peer {
    if (peer?.id === peerId) return peer;
    closePeer();
    const connection = new RTCPeerConnection({ iceServers: room.iceServers ?? [] });
    const created: Peer = {
      id: peerId,
      connection,
      makingOffer: false,
      ignoreOffer: false,
      remoteStream: new MediaStream(),
    };
    peer = created;
    const signal = (data: SignalData) => send({ type: "signal", to: peerId, data });

    connection.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? created.remoteStream;
      if (!streams[0]) created.remoteStream.addTrack(track);
      created.remoteStream = stream;
      events.emit({ type: "remoteStream", stream });
    };
    connection.onicecandidate = ({ candidate }) => signal({ candidate: candidate?.toJSON() ?? null });
    connection.onnegotiationneeded = async () => {
      try {
        created.makingOffer = true;
        await connection.setLocalDescription();
        if (connection.localDescription) signal({ description: connection.localDescription.toJSON() });
      } catch (error) {
        fail("connection", `offer failed: ${String(error)}`);
      } finally {
        created.makingOffer = false;
      }
    };
    connection.onconnectionstatechange = () => {
      if (connection.connectionState === "failed") fail("connection", "the peer connection failed");
    };
    for (const track of localStream?.getTracks() ?? []) connection.addTrack(track, localStream!);
    return created;
  }

  async function receiveSignal(from: string, data: SignalData) {
    const current = openPeer(from);
    const { connection } = current;
    const polite = role === "participant";
    if (data.description) {
      const description = data.description as RTCSessionDescriptionInit;
      const offerCollision =
        description.type === "offer" && (current.makingOffer || connection.signalingState !== "stable");
      current.ignoreOffer = !polite && offerCollision;
      if (current.ignoreOffer) return;
      await connection.setRemoteDescription(description);
      if (description.type === "offer") {
        await connection.setLocalDescription();
        if (connection.localDescription) {
          send({ type: "signal", to: from, data: { description: connection.localDescription.toJSON() } });
        }
      }
    } else if (data.candidate !== undefined) {
      try {
        await connection.addIceCandidate(data.candidate ?? undefined);
      } catch (error) {
        if (!current.ignoreOffer) throw error;
      }
    }
  }

  function handle(message: ServerSignalMessage) {
    switch (message.type) {
      case "joined":
        role = message.role;
        for (const other of message.peers) {
          openPeer(other.peer_id);
          events.emit({ type: "peerJoined" });
        }
        return;
      case "peer-joined":
        // The newcomer offers (it opens its connection on "joined"); this side answers, opening
        // its own when the offer arrives. Were both to offer at once, the polite side's rollback
        // can race its own pending offer, and Chromium then answered without gathering a single
        // ICE candidate: a room that never connects (seen in about one join in three).
        events.emit({ type: "peerJoined" });
        return;
      case "peer-left":
        if (peer?.id === message.peer_id) closePeer();
        events.emit({ type: "peerLeft" });
        return;
      case "signal":
        receiveSignal(message.from, message.data).catch((error: unknown) =>
          fail("connection", `signal failed: ${String(error)}`),
        );
        return;
      case "ended":
        events.emit({ type: "ended" });
        return;
      case "error":
        fail("connection", `${message.code}: ${message.message}`);
        return;
    }
  }

  function senderStates(): SenderTrackState[] {
    return (peer?.connection.getSenders() ?? []).flatMap((sender) =>
      sender.track
        ? [{ kind: sender.track.kind, enabled: sender.track.enabled, readyState: sender.track.readyState }]
        : [],
    );
  }

  return {
    on: events.on,

    async join(options: JoinOptions) {
      try {
        localStream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
      } catch (error) {
        fail(isPermissionError(error) ? "permission" : "connection", `getUserMedia: ${String(error)}`);
        return;
      }
      if (left) {
        for (const track of localStream.getTracks()) track.stop();
        return;
      }
      for (const track of localStream.getAudioTracks()) track.enabled = options.microphoneEnabled;
      for (const track of localStream.getVideoTracks()) track.enabled = options.cameraEnabled;
      events.emit({ type: "localStream", stream: localStream });
      globalThis.__clinroVisitSenders = senderStates;

      const opened = room.openSignalSocket();
      socket = opened;
      opened.onopen = () => send({ type: "join", room: room.channel, ticket: room.roomToken });
      opened.onmessage = (event: MessageEvent) => {
        let parsed: ServerSignalMessage;
        try {
          parsed = serverSignalMessage.parse(JSON.parse(String(event.data)));
        } catch {
          return; // Not one of the contract's messages: nothing this side can act on.
        }
        handle(parsed);
      };
      opened.onerror = () => fail("connection", "the signalling connection failed");
      opened.onclose = (event: CloseEvent) => {
        // A close the room did not ask for, before anyone arrived or after: the room cannot work.
        if (!left && !event.wasClean) fail("connection", `signalling closed (${event.code})`);
      };
    },

    async leave(options) {
      if (left) return;
      if (options?.endForEveryone) send({ type: "end" });
      left = true;
      closePeer();
      socket?.close(1000);
      socket = null;
      for (const track of localStream?.getTracks() ?? []) track.stop();
      localStream = null;
      if (globalThis.__clinroVisitSenders === senderStates) globalThis.__clinroVisitSenders = undefined;
    },

    async setMicrophoneEnabled(enabled: boolean) {
      for (const track of localStream?.getAudioTracks() ?? []) track.enabled = enabled;
    },

    async setCameraEnabled(enabled: boolean) {
      // A disabled track sends black frames: the connection stays as negotiated.
      for (const track of localStream?.getVideoTracks() ?? []) track.enabled = enabled;
    },
  };
}

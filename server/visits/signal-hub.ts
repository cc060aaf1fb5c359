/**
 * The built-in video service's signalling: WebSocket peers of visit rooms exchanging WebRTC
 * offers, answers and candidates. Owns this server's sockets (peer id → socket, room, role); the
 * rooms' membership lives in visit_room_peers, shared by every server of the database, so that
 * a room holds at most SIGNAL_ROOM_MAX_PEERS peers wherever they connect. Messages for peers of
 * other servers travel on the signal bus (PostgreSQL NOTIFY).
 *
 * Protocol (core/contracts/visits.ts): the first message is a join carrying the room ticket (never
 * a token in the URL); then signal messages go to one peer, and the clinician's end closes the
 * room for everyone. Anything malformed, too large or too frequent gets an error and the socket
 * closes. Each server refreshes its peers' seen_at; peers of a server that stopped without
 * leaving are swept after PEER_STALE_S and their rooms hear peer-left.
 */
import { randomUUID } from "node:crypto";
import { and, count, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { WebSocket } from "ws";
import {
  clientSignalMessage,
  SIGNAL_JOIN_TIMEOUT_MS,
  SIGNAL_MESSAGE_MAX_BYTES,
  SIGNAL_ROOM_MAX_PEERS,
  type ServerSignalMessage,
  type SignalErrorCode,
  type SignalPeer,
  type VisitRole,
} from "../../core/contracts/visits.ts";
import type { Database } from "../db/client.ts";
import { visitRoomPeers } from "../db/schema.ts";
import type { RoomTicketSigner } from "./room-tickets.ts";
import type { SignalBus, SignalEnvelope } from "./signal-bus.ts";
import { errorSummary } from "../http/error-summary.ts";

export const HEARTBEAT_MS = 15_000;
export const PEER_STALE_S = 45;
/** Keep-alive pings: proxies drop idle WebSockets, and a peer that stops answering is dropped. */
export const PING_MS = 25_000;
/** Messages a socket may send in a burst, and refilled per second after it. */
export const RATE_BURST = 200;
export const RATE_PER_S = 50;

const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_POLICY = 1008;
const CLOSE_TOO_BIG = 1009;

export type SignalHubLog = {
  error: (details: object, message: string) => void;
  info: (details: object, message: string) => void;
};

type LocalPeer = { peerId: string; room: string; role: VisitRole; socket: WebSocket };

export type SignalHub = {
  readonly serverId: string;
  /** Takes over a socket that has just connected to the signalling path. */
  accept: (socket: WebSocket) => void;
  start: () => Promise<void>;
  /** Leaves every room this server's peers are in and closes their sockets. */
  stop: () => Promise<void>;
};

export function createSignalHub(deps: {
  db: Database;
  tickets: RoomTicketSigner;
  bus: SignalBus;
  log: SignalHubLog;
}): SignalHub {
  const { db, tickets, bus, log } = deps;
  const { serverId } = bus;
  const peers = new Map<string, LocalPeer>();
  const pendingLeaves = new Set<Promise<void>>();
  /** Whether each socket answered the last ping. */
  const answered = new WeakMap<WebSocket, boolean>();
  let heartbeat: NodeJS.Timeout | undefined;
  let pinger: NodeJS.Timeout | undefined;
  let stopping = false;

  function send(socket: WebSocket, message: ServerSignalMessage) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }

  function refuse(socket: WebSocket, code: SignalErrorCode, message: string, closeCode = CLOSE_POLICY) {
    send(socket, { type: "error", code, message });
    socket.close(closeCode, code);
  }

  /** Delivers to this server's sockets of the room; answers whether any socket got it. */
  function deliverLocally(envelope: Omit<SignalEnvelope, "origin">) {
    let delivered = false;
    const targets =
      envelope.to !== undefined
        ? [peers.get(envelope.to)].filter((peer): peer is LocalPeer => peer?.room === envelope.room)
        : [...peers.values()].filter(
            (peer) => peer.room === envelope.room && peer.peerId !== envelope.except,
          );
    for (const peer of targets) {
      send(peer.socket, envelope.message);
      delivered = true;
      if (envelope.close) {
        // The room was ended: this peer leaves it now, whatever its client does next.
        void leave(peer);
        peer.socket.close(CLOSE_NORMAL, "ended");
      }
    }
    return delivered;
  }

  async function publish(envelope: Omit<SignalEnvelope, "origin">) {
    const deliveredHere = deliverLocally(envelope);
    // A message for one peer found here goes nowhere else.
    if (envelope.to !== undefined && deliveredHere) return;
    if (bus.crossesProcesses) await bus.publish({ ...envelope, origin: serverId });
  }

  function publishSafely(envelope: Omit<SignalEnvelope, "origin">) {
    void publish(envelope).catch((error: unknown) =>
      log.error(
        { failure: errorSummary(error), room: envelope.room },
        "Visit signalling: a message was not passed on",
      ),
    );
  }

  /** Takes a place in the room, or answers undefined when it is full. */
  async function takePlace(room: string, peerId: string, role: VisitRole) {
    return db.transaction(async (tx) => {
      // One joiner of a room at a time, across servers: the count and the insert go together.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`visit-room:${room}`}))`);
      const stale = await tx
        .delete(visitRoomPeers)
        .where(
          and(
            eq(visitRoomPeers.roomName, room),
            lt(visitRoomPeers.seenAt, sql`now() - make_interval(secs => ${PEER_STALE_S})`),
          ),
        )
        .returning({ peerId: visitRoomPeers.peerId });
      const [present] = await tx
        .select({ total: count() })
        .from(visitRoomPeers)
        .where(eq(visitRoomPeers.roomName, room));
      if ((present?.total ?? 0) >= SIGNAL_ROOM_MAX_PEERS) return { others: undefined, stale };
      await tx.insert(visitRoomPeers).values({ peerId, roomName: room, role, serverId });
      const others = await tx
        .select({ peer_id: visitRoomPeers.peerId, role: visitRoomPeers.role })
        .from(visitRoomPeers)
        .where(and(eq(visitRoomPeers.roomName, room), ne(visitRoomPeers.peerId, peerId)));
      return { others: others as SignalPeer[], stale };
    });
  }

  function leave(peer: LocalPeer): Promise<void> {
    if (peers.get(peer.peerId) !== peer) return Promise.resolve();
    peers.delete(peer.peerId);
    const leaving = (async () => {
      try {
        await db.delete(visitRoomPeers).where(eq(visitRoomPeers.peerId, peer.peerId));
        await publish({
          room: peer.room,
          except: peer.peerId,
          message: { type: "peer-left", peer_id: peer.peerId },
        });
      } catch (error) {
        log.error(
          { failure: errorSummary(error), room: peer.room },
          "Visit signalling: a peer's leaving was not recorded",
        );
      }
    })();
    pendingLeaves.add(leaving);
    void leaving.finally(() => pendingLeaves.delete(leaving));
    return leaving;
  }

  function accept(socket: WebSocket) {
    if (stopping) {
      socket.close(CLOSE_GOING_AWAY, "server stopping");
      return;
    }
    let state: "waiting" | "joining" | "joined" | "closed" = "waiting";
    let self: LocalPeer | undefined;
    let allowance = RATE_BURST;
    let lastRefill = Date.now();
    const joinTimer = setTimeout(() => {
      if (state === "waiting") refuse(socket, "join_timeout", "No join message arrived in time.");
    }, SIGNAL_JOIN_TIMEOUT_MS);

    answered.set(socket, true);
    socket.on("pong", () => answered.set(socket, true));

    socket.on("close", () => {
      clearTimeout(joinTimer);
      const wasJoined = state === "joined";
      state = "closed";
      if (wasJoined && self) void leave(self);
    });
    socket.on("error", (error) =>
      log.info({ failure: errorSummary(error) }, "Visit signalling: socket error"),
    );

    socket.on("message", (data, isBinary) => {
      void handle(data as Buffer | ArrayBuffer | Buffer[], isBinary).catch((error: unknown) => {
        log.error({ failure: errorSummary(error) }, "Visit signalling: a message failed");
        if (socket.readyState === socket.OPEN) socket.close(1011, "internal error");
      });
    });

    async function handle(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) {
      if (state === "closed") return;
      const now = Date.now();
      allowance = Math.min(RATE_BURST, allowance + ((now - lastRefill) / 1000) * RATE_PER_S);
      lastRefill = now;
      allowance -= 1;
      if (allowance < 0) return refuse(socket, "rate_limited", "Too many messages.");
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (bytes.byteLength > SIGNAL_MESSAGE_MAX_BYTES) {
        return refuse(
          socket,
          "bad_message",
          `A message may be at most ${SIGNAL_MESSAGE_MAX_BYTES} bytes.`,
          CLOSE_TOO_BIG,
        );
      }
      if (isBinary) return refuse(socket, "bad_message", "Messages are JSON text.");
      let raw: unknown;
      try {
        raw = JSON.parse(bytes.toString("utf8"));
      } catch {
        return refuse(socket, "bad_message", "Messages are JSON text.");
      }
      const parsed = clientSignalMessage.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return refuse(
          socket,
          "bad_message",
          `Not a signalling message: ${issue?.path.join(".") || "message"}: ${issue?.message}`,
        );
      }
      const message = parsed.data;

      if (state !== "joined") {
        if (message.type !== "join" || state !== "waiting") {
          return refuse(socket, "not_joined", "The first message must be a join with the room ticket.");
        }
        state = "joining";
        clearTimeout(joinTimer);
        const check = await tickets.verify(message.ticket);
        if (!check.ok) {
          return refuse(
            socket,
            check.reason,
            check.reason === "ticket_expired"
              ? "The room ticket has expired: open the room again."
              : "The room ticket is not valid.",
          );
        }
        if (check.claims.room !== message.room)
          return refuse(socket, "bad_ticket", "The room ticket is for another room.");
        const peerId = randomUUID();
        const { others, stale } = await takePlace(message.room, peerId, check.claims.role);
        for (const gone of stale) {
          publishSafely({
            room: message.room,
            except: peerId,
            message: { type: "peer-left", peer_id: gone.peerId },
          });
        }
        if (!others)
          return refuse(socket, "room_full", `This room already has ${SIGNAL_ROOM_MAX_PEERS} people in it.`);
        self = { peerId, room: message.room, role: check.claims.role, socket };
        peers.set(peerId, self);
        if (state !== "joining" || socket.readyState !== socket.OPEN) {
          // Closed while joining: give the place back.
          state = "closed";
          await leave(self);
          return;
        }
        state = "joined";
        send(socket, { type: "joined", peer_id: peerId, role: self.role, peers: others });
        await publish({
          room: self.room,
          except: peerId,
          message: { type: "peer-joined", peer_id: peerId, role: self.role },
        });
        return;
      }

      const me = self!;
      if (message.type === "join")
        return refuse(socket, "not_joined", "This socket has joined its room already.");
      if (message.type === "signal") {
        await publish({
          room: me.room,
          to: message.to,
          message: { type: "signal", from: me.peerId, data: message.data },
        });
        return;
      }
      if (me.role !== "clinician")
        return refuse(socket, "not_allowed", "Only the clinician can end the visit for everyone.");
      await publish({ room: me.room, except: me.peerId, message: { type: "ended" }, close: true });
    }
  }

  async function beat() {
    const mine = [...peers.keys()];
    if (mine.length > 0) {
      await db.update(visitRoomPeers).set({ seenAt: new Date() }).where(inArray(visitRoomPeers.peerId, mine));
    }
    const stale = await db
      .delete(visitRoomPeers)
      .where(lt(visitRoomPeers.seenAt, sql`now() - make_interval(secs => ${PEER_STALE_S})`))
      .returning({ peerId: visitRoomPeers.peerId, room: visitRoomPeers.roomName });
    for (const gone of stale) {
      publishSafely({
        room: gone.room,
        except: gone.peerId,
        message: { type: "peer-left", peer_id: gone.peerId },
      });
    }
    await bus.sweep();
  }

  return {
    serverId,
    accept,
    async start() {
      // One process on the database (PGlite): whatever the rooms held came from this server's
      // last run, which stopped without leaving them.
      if (!bus.crossesProcesses) await db.delete(visitRoomPeers);
      await bus.start((envelope) => {
        deliverLocally(envelope);
      });
      heartbeat = setInterval(() => {
        beat().catch((error: unknown) =>
          log.error({ failure: errorSummary(error) }, "Visit signalling: heartbeat failed"),
        );
      }, HEARTBEAT_MS);
      heartbeat.unref();
      pinger = setInterval(() => {
        for (const { socket } of peers.values()) {
          if (answered.get(socket) === false) {
            socket.terminate();
            continue;
          }
          answered.set(socket, false);
          socket.ping();
        }
      }, PING_MS);
      pinger.unref();
    },
    async stop() {
      stopping = true;
      clearInterval(heartbeat);
      clearInterval(pinger);
      const local = [...peers.values()];
      await Promise.all(local.map((peer) => leave(peer)));
      for (const peer of local) peer.socket.close(CLOSE_GOING_AWAY, "server stopping");
      await Promise.all([...pendingLeaves]);
      await bus.stop();
    },
  };
}

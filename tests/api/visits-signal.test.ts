import { afterEach, beforeAll, expect, it } from "vitest";
import {
  joinResponse,
  SIGNAL_MESSAGE_MAX_BYTES,
  validateRoomResponse,
  visitsResponse,
  type ServerSignalMessage,
} from "../../core/contracts/visits.ts";
import { participants, visitRoomPeers, visits } from "../../server/db/schema.ts";
import { hashJoinSecret, newJoinSecret } from "../../server/visits/join-links.ts";
import { createRoomTicketSigner } from "../../server/visits/room-tickets.ts";
import { RATE_BURST } from "../../server/visits/signal-hub.ts";
import { newRoomName } from "../../server/visits/visit-records.ts";
import { describeOnEachDatabase, TEST_SECRET_BYTES, type ApiHarness } from "../support/api-harness.ts";
import { connectSignal, type SignalClient } from "../support/signal-client.ts";

const STUDY = 102;
const SITE = 1021;
const OFFER = { type: "offer", sdp: "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n" } as const;
const CANDIDATE = {
  candidate: "candidate:1 1 udp 2122260223 192.0.2.1 54321 typ host",
  sdpMid: "0",
  sdpMLineIndex: 0,
};

/** A visit starting now with a join secret the test knows. */
async function newVisit(api: ApiHarness, participantId: number) {
  const secret = newJoinSecret();
  const [row] = await api.db
    .insert(visits)
    .values({
      studyId: STUDY,
      siteId: SITE,
      participantId,
      roomName: newRoomName(),
      visitTime: new Date(),
      visitDuration: 30,
      token: "test-visit-token",
      joinSecretHash: hashJoinSecret(secret),
    })
    .returning();
  return { roomName: row!.roomName, secret };
}

function expectType<T extends ServerSignalMessage["type"]>(
  message: ServerSignalMessage,
  type: T,
): Extract<ServerSignalMessage, { type: T }> {
  expect(message.type, JSON.stringify(message)).toBe(type);
  return message as Extract<ServerSignalMessage, { type: T }>;
}

describeOnEachDatabase("the visit signalling WebSocket /control/visits/signal", (api) => {
  let baseUrl = "";
  let participantId = 0;
  let coordinator = "";
  let staff1 = "";
  const open: SignalClient[] = [];

  beforeAll(async () => {
    await api.app.listen({ port: 0, host: "127.0.0.1" });
    const address = api.app.server.address();
    if (!address || typeof address === "string") throw new Error("The test server has no port");
    baseUrl = `http://127.0.0.1:${address.port}`;
    const [participant] = await api.db
      .insert(participants)
      .values({
        studyId: STUDY,
        siteId: SITE,
        fname: "Sig",
        lname: "Nal",
        email: "signal@participant.example",
      })
      .returning({ id: participants.id });
    participantId = participant!.id;
    coordinator = await api.signIn("coordinator@demo.test");
    staff1 = await api.signIn("staff1@demo.test");
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  const connect = async () => {
    const client = await connectSignal(baseUrl);
    open.push(client);
    return client;
  };
  const clinicianTicket = async (roomName: string, token = coordinator) => {
    const response = await api.request(
      "GET",
      `/control/studies/${STUDY}/room_name/${roomName}/validate_room`,
      { token },
    );
    expect(response.statusCode).toBe(200);
    return validateRoomResponse.parse(response.json()).roomToken;
  };
  const participantTicket = async (secret: string) => {
    const response = await api.request("GET", `/control/visits/join/${secret}`);
    expect(response.statusCode).toBe(200);
    return joinResponse.parse(response.json()).roomToken;
  };
  /** The clinician and the participant of a fresh visit, both joined. */
  const twoInARoom = async () => {
    const { roomName, secret } = await newVisit(api, participantId);
    const clinician = await connect();
    clinician.send({ type: "join", room: roomName, ticket: await clinicianTicket(roomName) });
    const clinicianJoined = expectType(await clinician.next(), "joined");
    expect(clinicianJoined).toMatchObject({ role: "clinician", peers: [] });
    const participant = await connect();
    participant.send({ type: "join", room: roomName, ticket: await participantTicket(secret) });
    const participantJoined = expectType(await participant.next(), "joined");
    expect(participantJoined.role).toBe("participant");
    expect(participantJoined.peers).toEqual([{ peer_id: clinicianJoined.peer_id, role: "clinician" }]);
    expect(await clinician.next()).toEqual({
      type: "peer-joined",
      peer_id: participantJoined.peer_id,
      role: "participant",
    });
    return {
      roomName,
      secret,
      clinician,
      participant,
      clinicianId: clinicianJoined.peer_id,
      participantId: participantJoined.peer_id,
    };
  };

  it("two peers of a room exchange offers, answers and candidates, each addressed to the other", async () => {
    const room = await twoInARoom();
    room.participant.send({ type: "signal", to: room.clinicianId, data: { description: OFFER } });
    expect(await room.clinician.next()).toEqual({
      type: "signal",
      from: room.participantId,
      data: { description: OFFER },
    });
    room.clinician.send({
      type: "signal",
      to: room.participantId,
      data: { description: { type: "answer", sdp: "v=0" } },
    });
    room.clinician.send({ type: "signal", to: room.participantId, data: { candidate: CANDIDATE } });
    room.clinician.send({ type: "signal", to: room.participantId, data: { candidate: null } });
    expect(await room.participant.next()).toEqual({
      type: "signal",
      from: room.clinicianId,
      data: { description: { type: "answer", sdp: "v=0" } },
    });
    expect(await room.participant.next()).toMatchObject({ data: { candidate: CANDIDATE } });
    expect(await room.participant.next()).toMatchObject({ data: { candidate: null } });
    // A signal for a peer of another room goes nowhere, and the socket stays open.
    const other = await twoInARoom();
    room.clinician.send({ type: "signal", to: other.participantId, data: { candidate: CANDIDATE } });
    room.clinician.send({ type: "signal", to: room.participantId, data: { candidate: CANDIDATE } });
    expect(await room.participant.next()).toMatchObject({
      from: room.clinicianId,
      data: { candidate: CANDIDATE },
    });
    other.clinician.send({ type: "signal", to: other.participantId, data: { description: OFFER } });
    expect(await other.participant.next()).toMatchObject({
      from: other.clinicianId,
      data: { description: OFFER },
    });
  });

  it("a third peer is refused: room_full, and the socket closes", async () => {
    const room = await twoInARoom();
    const third = await connect();
    third.send({ type: "join", room: room.roomName, ticket: await clinicianTicket(room.roomName, staff1) });
    expect(await third.next()).toMatchObject({ type: "error", code: "room_full" });
    expect(await third.closed).toBe(1008);
    const rows = await api.db.select().from(visitRoomPeers);
    expect(rows.filter((row) => row.roomName === room.roomName)).toHaveLength(2);
  });

  it("a peer that leaves is announced (peer-left) and its place is free again", async () => {
    const room = await twoInARoom();
    await room.participant.close();
    expect(await room.clinician.next()).toEqual({ type: "peer-left", peer_id: room.participantId });
    const again = await connect();
    again.send({ type: "join", room: room.roomName, ticket: await participantTicket(room.secret) });
    expect(expectType(await again.next(), "joined").peers).toEqual([
      { peer_id: room.clinicianId, role: "clinician" },
    ]);
  });

  it("a peer of a server that stopped without leaving is swept once stale, and frees its place", async () => {
    const { roomName, secret } = await newVisit(api, participantId);
    const stale = new Date(Date.now() - 10 * 60_000);
    await api.db.insert(visitRoomPeers).values([
      { peerId: "gone-1", roomName, role: "clinician", serverId: "stopped-server", seenAt: stale },
      { peerId: "gone-2", roomName, role: "participant", serverId: "stopped-server", seenAt: stale },
    ]);
    const clinician = await connect();
    clinician.send({ type: "join", room: roomName, ticket: await clinicianTicket(roomName) });
    expect(expectType(await clinician.next(), "joined").peers).toEqual([]);
    const participant = await connect();
    participant.send({ type: "join", room: roomName, ticket: await participantTicket(secret) });
    expect(expectType(await participant.next(), "joined").peers).toHaveLength(1);
    const rows = await api.db.select().from(visitRoomPeers);
    expect(rows.filter((row) => row.roomName === roomName).map((row) => row.serverId)).not.toContain(
      "stopped-server",
    );
  });

  it("the clinician's end closes the room for the others (ended); a participant may not end it", async () => {
    const room = await twoInARoom();
    room.participant.send({ type: "end" });
    expect(await room.participant.next()).toMatchObject({ type: "error", code: "not_allowed" });
    await room.participant.closed;
    expect(await room.clinician.next()).toEqual({ type: "peer-left", peer_id: room.participantId });

    const second = await twoInARoom();
    second.clinician.send({ type: "end" });
    expect(await second.participant.next()).toEqual({ type: "ended" });
    expect(await second.participant.closed).toBe(1000);
    expect(await second.clinician.next()).toEqual({ type: "peer-left", peer_id: second.participantId });
  });

  it("refuses bad tickets: garbage, another room's, expired, and a session token", async () => {
    const { roomName, secret } = await newVisit(api, participantId);
    const other = await newVisit(api, participantId);
    const signer = createRoomTicketSigner(TEST_SECRET_BYTES);
    const expired = await signer.sign(
      { studyId: STUDY, room: roomName, role: "participant", subject: participantId },
      new Date(Date.now() - 1000),
    );
    const wrongKey = await createRoomTicketSigner(
      new TextEncoder().encode("another-secret-another-secret-0123"),
    ).sign({ studyId: STUDY, room: roomName, role: "clinician", subject: 1 }, new Date(Date.now() + 60_000));
    for (const [ticket, code] of [
      ["not-a-ticket", "bad_ticket"],
      [await participantTicket(other.secret), "bad_ticket"],
      [expired, "ticket_expired"],
      [wrongKey, "bad_ticket"],
      [coordinator, "bad_ticket"],
    ] as const) {
      const client = await connect();
      client.send({ type: "join", room: roomName, ticket });
      expect(await client.next()).toMatchObject({ type: "error", code });
      expect(await client.closed).toBe(1008);
    }
    // The room's own ticket still works.
    const client = await connect();
    client.send({ type: "join", room: roomName, ticket: await participantTicket(secret) });
    expectType(await client.next(), "joined");
  });

  it("refuses messages that break the protocol: not joined first, not JSON, unknown, binary, too large, too many", async () => {
    const { roomName } = await newVisit(api, participantId);
    const cases: [string | Buffer | object, string, number][] = [
      [{ type: "signal", to: "someone", data: {} }, "not_joined", 1008],
      ["{not json", "bad_message", 1008],
      [{ type: "shout", text: "hello" }, "bad_message", 1008],
      [{ type: "join", room: "bad room!", ticket: "x" }, "bad_message", 1008],
      [Buffer.from([1, 2, 3]), "bad_message", 1008],
      [
        {
          type: "join",
          room: roomName,
          ticket: "x",
          padding: "x".repeat(SIGNAL_MESSAGE_MAX_BYTES),
        },
        "bad_message",
        1009,
      ],
    ];
    for (const [message, code, closeCode] of cases) {
      const client = await connect();
      if (Buffer.isBuffer(message)) client.socket.send(message, { binary: true });
      else client.send(typeof message === "string" ? message : JSON.stringify(message));
      expect(await client.next(), JSON.stringify(message).slice(0, 80)).toMatchObject({
        type: "error",
        code,
      });
      expect(await client.closed).toBe(closeCode);
    }
    // More messages at once than any negotiation needs: three bursts' worth, which the refill
    // (RATE_PER_S) could only make up for if sending them took seconds.
    const flooder = await connect();
    flooder.send({ type: "join", room: roomName, ticket: await clinicianTicket(roomName) });
    expectType(await flooder.next(), "joined");
    for (let index = 0; index < 3 * RATE_BURST; index += 1) {
      flooder.send({ type: "signal", to: "nobody-here", data: { candidate: CANDIDATE } });
    }
    expect(await flooder.next()).toMatchObject({ type: "error", code: "rate_limited" });
    expect(await flooder.closed).toBe(1008);
    // A second join on a joined socket.
    const ticket = await clinicianTicket(roomName);
    const client = await connect();
    client.send({ type: "join", room: roomName, ticket });
    expectType(await client.next(), "joined");
    client.send({ type: "join", room: roomName, ticket });
    expect(await client.next()).toMatchObject({ type: "error", code: "not_joined" });
  });

  it("lists the demo's rooms to join with validate_room (the tickets work for the demo too)", async () => {
    const listed = visitsResponse.parse(
      (
        await api.request("GET", `/control/studies/${STUDY}/sites/${SITE}/clinro_visits`, {
          token: coordinator,
        })
      ).json(),
    ).visits;
    const room = listed.find((visit) => visit.token !== null)!;
    const client = await connect();
    client.send({ type: "join", room: room.room_name, ticket: await clinicianTicket(room.room_name) });
    expect(expectType(await client.next(), "joined").role).toBe("clinician");
  });
});

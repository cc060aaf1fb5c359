/**
 * Visit signalling across two real server processes on one PostgreSQL: the clinician's socket on
 * one server, the participant's on the other, and everything still crosses (LISTEN/NOTIFY),
 * including an offer too large for one NOTIFY payload. Needs TEST_DATABASE_URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinResponse, validateRoomResponse, type ServerSignalMessage } from "../../core/contracts/visits.ts";
import { NOTIFY_PAYLOAD_MAX_BYTES } from "../../server/visits/signal-bus.ts";
import { hashJoinSecret, newJoinSecret } from "../../server/visits/join-links.ts";
import { newRoomName } from "../../server/visits/visit-records.ts";
import { connectSignal, type SignalClient } from "../support/signal-client.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const adminUrl = process.env.TEST_DATABASE_URL || undefined;
const STUDY = 102;
const SITE = 1021;
const JWT_SECRET = "two-servers-shared-signing-secret-0123456789";

async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("No free port");
  return address.port;
}

async function waitUntilHealthy(url: string, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server at ${url} exited`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type Server = { url: string; child: ChildProcess; dataDir: string };

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-visits-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      STATIC_DIR: path.join(dataDir, "no-app"),
      SEED: "demo",
      LOG_LEVEL: "warn",
      AGORA_APP_ID: "",
      AGORA_APP_CERTIFICATE: "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(url, child);
  return { url, child, dataDir };
}

async function stopServer(server: Server | undefined) {
  if (!server) return;
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await rm(server.dataDir, { recursive: true, force: true });
}

function expectType<T extends ServerSignalMessage["type"]>(message: ServerSignalMessage, type: T) {
  expect(message.type, JSON.stringify(message).slice(0, 200)).toBe(type);
  return message as Extract<ServerSignalMessage, { type: T }>;
}

describe.skipIf(!adminUrl)(
  adminUrl
    ? "visit signalling across two server processes on one PostgreSQL"
    : "visit signalling across two server processes (skipped: TEST_DATABASE_URL is not set)",
  () => {
    let drop: (() => Promise<void>) | undefined;
    let databaseUrl = "";
    let first: Server | undefined;
    let second: Server | undefined;
    const clients: SignalClient[] = [];

    beforeAll(async () => {
      const database = await createThrowawayDatabase(adminUrl!, "visits");
      drop = database.drop;
      databaseUrl = database.url;
      // One after the other: the first seeds the empty database, the second finds it seeded.
      first = await startServer(databaseUrl);
      second = await startServer(databaseUrl);
    }, 180_000);

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await stopServer(first);
      await stopServer(second);
      await drop?.();
    }, 60_000);

    const connect = async (server: Server) => {
      const client = await connectSignal(server.url);
      clients.push(client);
      return client;
    };

    it("a peer on each server: joins, signals (a large offer too), room_full, peer-left and ended cross between them", async () => {
      // A visit under way with a join secret the test knows.
      const secret = newJoinSecret();
      const roomName = newRoomName();
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const [participant] = await sql<{ id: number }[]>`
          select id from participants where study_id = ${STUDY} and site_id = ${SITE} order by id limit 1`;
        await sql`
          insert into visits (study_id, site_id, participant_id, room_name, visit_time, visit_duration, token, join_secret_hash)
          values (${STUDY}, ${SITE}, ${participant!.id}, ${roomName}, now(), 30, 'two-servers', ${hashJoinSecret(secret)})`;
      } finally {
        await sql.end();
      }

      // Each side gets its ticket from one server and connects to the other: the tickets of
      // servers sharing JWT_SECRET are good on both.
      const login = await fetch(`${first!.url}/control/clinro/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "coordinator@demo.test", password: "DemoPass1!" }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const validated = await fetch(
        `${first!.url}/control/studies/${STUDY}/room_name/${roomName}/validate_room`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(validated.status).toBe(200);
      const clinicianTicket = validateRoomResponse.parse(await validated.json()).roomToken;
      const joined = await fetch(`${second!.url}/control/visits/join/${secret}`);
      expect(joined.status).toBe(200);
      const participantTicket = joinResponse.parse(await joined.json()).roomToken;

      const clinician = await connect(second!);
      clinician.send({ type: "join", room: roomName, ticket: clinicianTicket });
      const clinicianId = expectType(await clinician.next(), "joined").peer_id;

      const participant = await connect(first!);
      participant.send({ type: "join", room: roomName, ticket: participantTicket });
      const participantJoined = expectType(await participant.next(), "joined");
      expect(participantJoined.peers).toEqual([{ peer_id: clinicianId, role: "clinician" }]);
      const participantId = participantJoined.peer_id;
      expect(await clinician.next()).toEqual({
        type: "peer-joined",
        peer_id: participantId,
        role: "participant",
      });

      // An offer larger than one NOTIFY payload, then candidates: they arrive whole and in order.
      const bigOffer = { type: "offer" as const, sdp: `v=0\r\n${"a=x-filler:0123456789\r\n".repeat(1200)}` };
      expect(bigOffer.sdp.length).toBeGreaterThan(3 * NOTIFY_PAYLOAD_MAX_BYTES);
      participant.send({ type: "signal", to: clinicianId, data: { description: bigOffer } });
      for (let index = 0; index < 5; index += 1) {
        participant.send({
          type: "signal",
          to: clinicianId,
          data: {
            candidate: {
              candidate: `candidate:${index} 1 udp 1 192.0.2.1 5000${index} typ host`,
              sdpMid: "0",
            },
          },
        });
      }
      expect(await clinician.next()).toEqual({
        type: "signal",
        from: participantId,
        data: { description: bigOffer },
      });
      for (let index = 0; index < 5; index += 1) {
        const candidate = expectType(await clinician.next(), "signal");
        expect(candidate.data.candidate?.candidate).toBe(
          `candidate:${index} 1 udp 1 192.0.2.1 5000${index} typ host`,
        );
      }
      // It travelled through the spill table, not one NOTIFY.
      const check = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const [spilled] = await check<{ count: string }[]>`select count(*) from visit_signal_spill`;
        expect(Number(spilled!.count)).toBeGreaterThanOrEqual(1);
      } finally {
        await check.end();
      }
      clinician.send({
        type: "signal",
        to: participantId,
        data: { description: { type: "answer", sdp: "v=0" } },
      });
      // A peer may be announced again when its server's notification arrives late on a busy
      // machine; the client treats a repeat as the same peer, so the test does too.
      let answer = await participant.next();
      while (answer.type === "peer-joined" && answer.peer_id === clinicianId)
        answer = await participant.next();
      expect(answer).toEqual({
        type: "signal",
        from: clinicianId,
        data: { description: { type: "answer", sdp: "v=0" } },
      });

      // The room is full whichever server a third peer reaches.
      for (const server of [first!, second!]) {
        const third = await connect(server);
        third.send({ type: "join", room: roomName, ticket: clinicianTicket });
        expect(await third.next()).toMatchObject({ type: "error", code: "room_full" });
        await third.closed;
      }

      // Leaving on one server is heard on the other; the place is free again.
      await participant.close();
      expect(await clinician.next()).toEqual({ type: "peer-left", peer_id: participantId });
      const back = await connect(second!);
      back.send({ type: "join", room: roomName, ticket: participantTicket });
      const backId = expectType(await back.next(), "joined").peer_id;
      expect(await clinician.next()).toMatchObject({ type: "peer-joined", peer_id: backId });

      // Across servers again for the end: the participant back on the first server.
      await back.close();
      expect(await clinician.next()).toEqual({ type: "peer-left", peer_id: backId });
      const last = await connect(first!);
      last.send({ type: "join", room: roomName, ticket: participantTicket });
      const lastId = expectType(await last.next(), "joined").peer_id;
      expect(await clinician.next()).toMatchObject({ type: "peer-joined", peer_id: lastId });
      clinician.send({ type: "end" });
      expect(await last.next()).toEqual({ type: "ended" });
      expect(await last.closed).toBe(1000);
      expect(await clinician.next()).toEqual({ type: "peer-left", peer_id: lastId });
    }, 60_000);
  },
);

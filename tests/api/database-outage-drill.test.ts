/**
 * A real server process on a PostgreSQL of this test's own, which the test stops in "immediate"
 * mode (what a killed database looks like to its clients) while writes are in flight, then
 * starts again. The server must live through it: every refused request a 503 with Retry-After
 * (what the app's outbox retries), /healthz saying the database is down, its connections back
 * by themselves once the database is, and no transaction half stored. Three stops, as the
 * driver's fatal write (scripts/patch-postgres-driver.mjs) came in one stop of three or four.
 */
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres.ts";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../support/server-process.ts";

const JWT_SECRET = "database-outage-drill-signing-secret-0123456789";
const STUDY = 101;
const WRITERS = 24;
const STOPS = Number(process.env.DRILL_STOPS ?? 3);

type Sent = { key: string; status: number | "no answer"; retryAfter: string | null; ms: number };

describe("a database outage under writes (a private PostgreSQL stopped and started)", () => {
  let cluster: PrivatePostgres;
  let server: ServerProcess;
  let admin: postgres.Sql;
  let token: string;
  let participant: number;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const bootstrap = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    await bootstrap`create database clinro`;
    await bootstrap.end();
    server = await startServerProcess({ databaseUrl: cluster.url("clinro"), jwtSecret: JWT_SECRET });
    admin = postgres(cluster.url("clinro"), { max: 1, onnotice: () => {} });
    const login = await fetch(`${server.url}/control/clinro/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "coordinator@demo.test", password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { token: string }).token;
    const [row] = await admin<{ id: number }[]>`
      select id from participants where study_id = ${STUDY} order by id limit 1`;
    participant = row!.id;
  }, 240_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await admin?.end({ timeout: 1 }).catch(() => {});
    await cluster?.destroy();
  });

  /** One request of two events, both tagged with its key: stored whole or not at all. */
  const postEvents = async (key: string): Promise<Sent> => {
    const events = ["delivered", "visible"].map((type) => ({
      type,
      timestamp: "2026-11-22T09:30:00.000Z",
      info: { instance_id: key, study_id: STUDY },
      study_id: STUDY,
      participant,
    }));
    const began = Date.now();
    try {
      const response = await fetch(`${server.url}/control/participants/me/events?platform=clinro`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          "idempotency-key": key,
        },
        body: JSON.stringify(events),
      });
      await response.arrayBuffer();
      return {
        key,
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ms: Date.now() - began,
      };
    } catch {
      return { key, status: "no answer", retryAfter: null, ms: Date.now() - began };
    }
  };

  const serverIsRunning = () => server.child.exitCode === null && server.child.signalCode === null;

  const health = async () => {
    const response = await fetch(`${server.url}/healthz`);
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      retryAfter: response.headers.get("retry-after"),
    };
  };

  const eventsPerKey = async (keys: string[]) => {
    const rows = await admin<{ key: string; events: number }[]>`
      select info->>'instance_id' as key, count(*)::int as events from participant_events
      where info->>'instance_id' = any(${keys}) group by 1`;
    return new Map(rows.map((row) => [row.key, row.events]));
  };

  it("keeps answering through immediate stops, 503 with Retry-After, and stores every write once", async () => {
    const sent: Sent[] = [];
    for (let stop = 0; stop < STOPS; stop += 1) {
      let writing = true;
      // Writers keep posting through the stop; the database dies under some of their writes.
      const writers = Array.from({ length: WRITERS }, async () => {
        while (writing) sent.push(await postEvents(randomUUID()));
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await cluster.stop("immediate");
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      expect(serverIsRunning()).toBe(true);
      const asked = Date.now();
      expect(await health()).toEqual({ status: 503, body: { database: "down" }, retryAfter: "5" });
      // Refused at once, not after the driver's connection timeout (30 s).
      expect(Date.now() - asked).toBeLessThan(10_000);
      writing = false;
      await Promise.all(writers);

      await cluster.start();
      const back = Date.now();
      while ((await health()).status !== 200) {
        expect(Date.now() - back, "the server reconnects within 30 s").toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(serverIsRunning()).toBe(true);
    }

    const refused = sent.filter((request) => request.status !== 200);
    // Every request had an answer, and every refusal was the retryable 503.
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((request) => request.status))).toEqual(new Set([503]));
    expect(refused.every((request) => Number(request.retryAfter) > 0)).toBe(true);
    // Each refused within seconds (the driver's own backoff made a request wait up to 45 s).
    expect(Math.max(...refused.map((request) => request.ms))).toBeLessThan(10_000);

    // No request is half stored: both its events or neither.
    const keys = sent.map((request) => request.key);
    const stored = await eventsPerKey(keys);
    expect([...stored.values()].filter((events) => events !== 2)).toEqual([]);
    for (const request of sent.filter((request) => request.status === 200)) {
      expect(stored.get(request.key)).toBe(2);
    }

    // The outbox sends each refused request again with its key: each is then stored once.
    for (const request of refused) expect((await postEvents(request.key)).status).toBe(200);
    const afterRetries = await eventsPerKey(keys);
    expect(keys.filter((key) => afterRetries.get(key) !== 2)).toEqual([]);
    expect(serverIsRunning()).toBe(true);
  }, 600_000);
});

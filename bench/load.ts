/**
 * `npm run bench:load`: many clinicians at once against one running server, on PGlite and (when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set) on PostgreSQL, each in a database of its own.
 *
 * The database is made first (migrated, demo seed, and BENCH_LOAD_CLINICIANS clinician accounts
 * of study 101, 50 by default), then a real server process (node server/main.ts) is started on
 * it. Each virtual clinician signs in, then for BENCH_LOAD_SECONDS (20 by default) goes round:
 * search the site's participants, open one, list their instruments, load the CGI-S definition,
 * submit it (an unscheduled submission, as the app builds it), send two events; it signs in
 * again every 10 rounds. No pause between calls: the figures are the server's throughput with 50
 * clinicians waiting on it (the client runs on the same machine, and takes some of its CPU).
 *
 * Prints requests per second, p50/p95/p99 per call, the errors (target: 0), and whether the
 * server's new submission and event rows equal what the clients were told was stored.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { ROLE_CODE } from "../core/contracts/roles.ts";
import { instancesListResponse } from "../core/contracts/instrument-lists.ts";
import { participantSearchResponse } from "../core/contracts/participant.ts";
import type { SurveyDefinition } from "../core/contracts/survey-definition.ts";
import { hashPassword } from "../server/auth/passwords.ts";
import { openDatabase, type DatabaseOptions } from "../server/db/client.ts";
import {
  instrumentSubmissions,
  participantEvents,
  participants,
  sitePermissions,
  sites,
  studyPermissions,
  users,
} from "../server/db/schema.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { chosen, parseDefinitionOrThrow, payloadFor } from "../tests/support/submissions.ts";
import { startServerProcess, stopServerProcess } from "../tests/support/server-process.ts";
import { createThrowawayDatabase } from "../tests/support/throwaway-postgres.ts";

const CLINICIANS = Number(process.env.BENCH_LOAD_CLINICIANS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const STUDY_ID = 101;
const PASSWORD = "Load&Bench42";
const JWT_SECRET = "bench-load-signing-secret-0123456789abcdef";
const ROUNDS_PER_SIGN_IN = 10;
const CALLS = [
  "sign in",
  "search",
  "open participant",
  "instruments",
  "definition",
  "submit",
  "events",
] as const;
type CallName = (typeof CALLS)[number];

type Prepared = {
  usernames: string[];
  /** Participants of study 101 with their site, and a part of their last name to search. */
  people: { id: number; siteId: number; search: string }[];
  counts: { submissions: number; events: number };
};

async function rowCounts(db: Awaited<ReturnType<typeof openDatabase>>["db"]) {
  const [submissions] = await db.select({ count: sql<number>`count(*)::int` }).from(instrumentSubmissions);
  const [events] = await db.select({ count: sql<number>`count(*)::int` }).from(participantEvents);
  return { submissions: Number(submissions!.count), events: Number(events!.count) };
}

/** Migrates, seeds the demo and adds the bench's clinicians; answers what the clients need. */
async function prepare(options: DatabaseOptions): Promise<Prepared> {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    await seedDemo(handle.db);
    const hash = await hashPassword(PASSWORD);
    const studySites = await handle.db
      .select({ id: sites.id })
      .from(sites)
      .where(eq(sites.studyId, STUDY_ID));
    const usernames: string[] = [];
    for (let index = 0; index < CLINICIANS; index++) {
      const username = `load${index}@bench.test`;
      const [user] = await handle.db
        .insert(users)
        .values({
          username,
          passwordHash: hash,
          name: `Load Clinician ${index}`,
          nickname: `Load ${index}`,
          fname: "Load",
        })
        .returning({ id: users.id });
      await handle.db.insert(studyPermissions).values({
        userId: user!.id,
        studyId: STUDY_ID,
        role: ROLE_CODE.clinicalCoordinator,
        scope: ["ca", "cp"],
      });
      await handle.db
        .insert(sitePermissions)
        .values(studySites.map((site) => ({ userId: user!.id, siteId: site.id })));
      usernames.push(username);
    }
    const people = await handle.db
      .select({ id: participants.id, siteId: participants.siteId, lname: participants.lname })
      .from(participants)
      .where(eq(participants.studyId, STUDY_ID));
    return {
      usernames,
      people: people.map((person) => ({
        id: person.id,
        siteId: person.siteId,
        search: person.lname.slice(0, 4),
      })),
      counts: await rowCounts(handle.db),
    };
  } finally {
    await handle.close();
  }
}

class CallError extends Error {}

type Stats = { latencies: Map<CallName, number[]>; errors: Map<CallName, number>; samples: string[] };

function newStats(): Stats {
  return {
    latencies: new Map(CALLS.map((name) => [name, []])),
    errors: new Map(CALLS.map((name) => [name, 0])),
    samples: [],
  };
}

async function timed(stats: Stats, name: CallName, url: string, init: RequestInit, expected: number) {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    stats.errors.set(name, stats.errors.get(name)! + 1);
    if (stats.samples.length < 5) stats.samples.push(`${name}: ${(error as Error).message}`);
    throw new CallError(name);
  }
  const body = new Uint8Array(await response.arrayBuffer());
  stats.latencies.get(name)!.push(performance.now() - started);
  if (response.status !== expected) {
    stats.errors.set(name, stats.errors.get(name)! + 1);
    if (stats.samples.length < 5) {
      stats.samples.push(`${name}: ${response.status} ${Buffer.from(body).toString("utf8").slice(0, 200)}`);
    }
    throw new CallError(name);
  }
  return { response, body };
}

const json = (body: Uint8Array) => JSON.parse(Buffer.from(body).toString("utf8")) as unknown;

/** One clinician's rounds until `deadline`; answers what the server said it stored. */
async function clinician(
  baseUrl: string,
  username: string,
  prepared: Prepared,
  deadline: number,
  stats: Stats,
  seed: number,
) {
  const stored = { submissions: 0, events: 0 };
  let token = "";
  let userId = 0;
  const definitions = new Map<string, SurveyDefinition>();
  for (let round = 0; performance.now() < deadline; round++) {
    try {
      if (round % ROUNDS_PER_SIGN_IN === 0) {
        const { body } = await timed(
          stats,
          "sign in",
          `${baseUrl}/control/clinro/login`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username, password: PASSWORD }),
          },
          200,
        );
        const answer = json(body) as { token: string; user?: { id: number } };
        token = answer.token;
        userId = answer.user?.id ?? JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).id;
      }
      const auth = { authorization: `Bearer ${token}` };
      const person = prepared.people[(seed * 7919 + round * 104_729) % prepared.people.length]!;
      const { body: found } = await timed(
        stats,
        "search",
        `${baseUrl}/control/studies/${STUDY_ID}/sites/${person.siteId}/clinro_search?search_value=${encodeURIComponent(person.search)}`,
        { headers: auth },
        200,
      );
      const results = participantSearchResponse.parse(json(found)).response;
      const chosenOne = results.find((result) => result.id === person.id) ?? person;
      await timed(
        stats,
        "open participant",
        `${baseUrl}/control/studies/${STUDY_ID}/sites/${person.siteId}/participants/${chosenOne.id}`,
        { headers: auth },
        200,
      );
      const { body: listed } = await timed(
        stats,
        "instruments",
        `${baseUrl}/control/participants/${chosenOne.id}/instruments/instances?study_id=${STUDY_ID}`,
        { headers: auth },
        200,
      );
      const instrument = instancesListResponse
        .parse(json(listed))
        .instruments.find((candidate) => candidate.url.endsWith("/cgi-s"));
      if (!instrument) throw new Error(`Participant ${chosenOne.id} has no CGI-S`);
      const { response: definitionResponse, body: definitionBody } = await timed(
        stats,
        "definition",
        `${baseUrl}/control${instrument.url}`,
        { headers: auth },
        200,
      );
      let definition = definitions.get(instrument.url);
      if (!definition) {
        const text = String(definitionResponse.headers.get("content-type")).startsWith("application/zip")
          ? strFromU8(Object.values(unzipSync(definitionBody))[0]!)
          : Buffer.from(definitionBody).toString("utf8");
        definition = parseDefinitionOrThrow(JSON.parse(text));
        definitions.set(instrument.url, definition);
      }
      const answers = Object.fromEntries(
        definition.order.flatMap((id) => {
          const choices = definition.questions[id]?.choices;
          const first = choices ? Object.keys(choices)[0] : undefined;
          return first ? [[id, [chosen(definition, id, first)]]] : [];
        }),
      );
      const payload = payloadFor(definition, answers, {
        user: { id: userId, username },
        instrumentId: instrument.instrument_id,
      });
      await timed(
        stats,
        "submit",
        `${baseUrl}/control/clinro/participant/${chosenOne.id}/instruments/${instrument.instrument_id}/submission`,
        {
          method: "POST",
          headers: {
            ...auth,
            "content-type": "application/json",
            version: "010",
            "idempotency-key": randomUUID(),
          },
          body: JSON.stringify([payload]),
        },
        201,
      );
      stored.submissions += 1;
      const now = new Date().toISOString();
      const events = ["delivered", "visible"].map((type) => ({
        type,
        timestamp: now,
        info: { instrument_id: instrument.instrument_id, study_id: STUDY_ID },
        study_id: STUDY_ID,
        participant: chosenOne.id,
      }));
      const { body: received } = await timed(
        stats,
        "events",
        `${baseUrl}/control/participants/me/events?platform=clinro`,
        {
          method: "POST",
          headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify(events),
        },
        200,
      );
      stored.events += (json(received) as { received: number }).received;
    } catch (error) {
      if (!(error instanceof CallError)) throw error;
      token = round % ROUNDS_PER_SIGN_IN === 0 ? "" : token;
    }
  }
  return stored;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1).padStart(7));

async function run(label: string, database: DatabaseOptions, serverDatabaseUrl?: string, dataDir?: string) {
  console.log(`\n${label}: preparing (migrate, demo seed, ${CLINICIANS} clinicians)...`);
  const prepared = await prepare(database);
  const server = await startServerProcess({
    databaseUrl: serverDatabaseUrl,
    dataDir,
    jwtSecret: JWT_SECRET,
    env: { SEED: "none", LOG_LEVEL: "error" },
  });
  const stats = newStats();
  let totals = { submissions: 0, events: 0 };
  let elapsed = 0;
  try {
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const results = await Promise.all(
      prepared.usernames.map((username, index) =>
        clinician(server.url, username, prepared, deadline, stats, index),
      ),
    );
    elapsed = (performance.now() - started) / 1000;
    totals = results.reduce(
      (sum, one) => ({ submissions: sum.submissions + one.submissions, events: sum.events + one.events }),
      totals,
    );
  } finally {
    await stopServerProcess(server);
  }
  // PGlite serves one process: the counts are read once the server has stopped.
  const handle = await openDatabase(database);
  const after = await rowCounts(handle.db);
  await handle.close();

  const requests = [...stats.latencies.values()].reduce((sum, list) => sum + list.length, 0);
  const errors = [...stats.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `${label}: ${CLINICIANS} clinicians, ${elapsed.toFixed(1)} s, ${requests} requests, ` +
      `${(requests / elapsed).toFixed(0)} requests/s, ${errors} errors`,
  );
  console.log("  call               count   req/s     p50     p95     p99   (ms)  errors");
  for (const name of CALLS) {
    const sorted = [...stats.latencies.get(name)!].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(17)} ${String(sorted.length).padStart(6)} ${(sorted.length / elapsed).toFixed(1).padStart(7)}` +
        ` ${ms(percentile(sorted, 50))} ${ms(percentile(sorted, 95))} ${ms(percentile(sorted, 99))}        ${stats.errors.get(name)}`,
    );
  }
  for (const sample of stats.samples) console.log(`  error: ${sample}`);
  const newSubmissions = after.submissions - prepared.counts.submissions;
  const newEvents = after.events - prepared.counts.events;
  const same = newSubmissions === totals.submissions && newEvents === totals.events;
  console.log(
    `  rows: server ${newSubmissions} submissions and ${newEvents} events; clients were told ` +
      `${totals.submissions} and ${totals.events}: ${same ? "equal" : "NOT EQUAL"}`,
  );
  return same && errors === 0;
}

console.log(
  `bench:load — ${CLINICIANS} clinicians for ${SECONDS} s each run; ${cpus().length} cores, ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} (other work on the machine shows in the figures)`,
);
let allGood = true;
const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-load-"));
try {
  const pgliteDir = path.join(dataDir, "pglite");
  allGood = (await run("PGlite", { kind: "pglite", dataDir: pgliteDir }, undefined, dataDir)) && allGood;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  const database = await createThrowawayDatabase(postgresUrl, "bench_load");
  try {
    allGood = (await run("PostgreSQL", { kind: "postgres", url: database.url }, database.url)) && allGood;
  } finally {
    await database.drop();
  }
} else {
  console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
}
if (!allGood) console.log("\nSome calls failed, or the row counts differ: see above.");

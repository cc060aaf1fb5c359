/**
 * `npm run bench:scale:load`: a thousand clinicians at a sponsor's scale, against TWO
 * server processes (node server/main.ts on two ports) on ONE PostgreSQL, all on this machine.
 *
 * The database: `clinro_load` on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432),
 * made afresh each run (dropped if present, migrated, the demo seed, BENCH_LOAD_CLINICIANS
 * clinical coordinators of study 101, each with one of its sites). With BENCH_LOAD_DATABASE set
 * (e.g. clinro_scale, built by bench/scale/), that database is used as it is instead, and its
 * staff accounts sign in (BENCH_LOAD_USERS_SQL and BENCH_LOAD_PASSWORD name them; see below).
 *
 * The clinicians (one Node process, fetch's keep-alive pool; each call goes to the next server in
 * turn, as a round-robin load balancer without sticky sessions sends it):
 * - sign in in waves at the start (BENCH_LOAD_WAVES waves, 4 by default, BENCH_LOAD_WAVE_GAP_S
 *   apart, 15 s by default; each wave's sign-ins spread evenly over BENCH_LOAD_WAVE_SPREAD_S, 5 s
 *   by default: a shift's clinicians opening the portal within the same few seconds);
 * - then make one call every 5 to 15 s (uniformly random think time, a fixed seed) for
 *   BENCH_LOAD_MINUTES (10 by default), going round a clinician's working pattern: their inbox
 *   (announcements) and the pending instruments, then for each participant seen: search, open
 *   the participant, their instruments, their instrument history, the definition, the submission
 *   (idempotency key), its two events, and now and then the consents list.
 *
 * Prints, with the machine: p50/p95/p99/max per call (targets: p95 at most 300 ms, sign-in at
 * most 1.5 s), the errors (target 0), whether the server's new submission and event rows equal
 * what the clients were told was stored, and each server's resident memory (VmRSS, sampled every
 * BENCH_LOAD_SAMPLE_S, 5 s by default) over the run, with its growth over the last 8 minutes
 * (the last 80 % of a shorter run): the median of the window's first 30 s of samples against its
 * last 30 s (target: at most 10 %). The client's latencies include its own event loop's delays
 * (it shares the 2 cores with the servers and PostgreSQL).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { strFromU8, unzipSync } from "fflate";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import { instancesListResponse } from "../../core/contracts/instrument-lists.ts";
import { participantSearchResponse } from "../../core/contracts/participant.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { executeRows, openDatabase, type Database } from "../../server/db/client.ts";
import {
  instrumentSubmissions,
  participantEvents,
  participants,
  sitePermissions,
  sites,
  studyPermissions,
  users,
} from "../../server/db/schema.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { chosen, parseDefinitionOrThrow, payloadFor } from "../../tests/support/submissions.ts";
import {
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from "../../tests/support/server-process.ts";

const CLINICIANS = Number(process.env.BENCH_LOAD_CLINICIANS ?? 1000);
const MINUTES = Number(process.env.BENCH_LOAD_MINUTES ?? 10);
const WAVES = Number(process.env.BENCH_LOAD_WAVES ?? 4);
const WAVE_GAP_S = Number(process.env.BENCH_LOAD_WAVE_GAP_S ?? 15);
const WAVE_SPREAD_S = Number(process.env.BENCH_LOAD_WAVE_SPREAD_S ?? 5);
const THINK_MIN_S = 5;
const THINK_MAX_S = 15;
const SAMPLE_S = Number(process.env.BENCH_LOAD_SAMPLE_S ?? 5);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
/**
 * What each clinician's browser offers in Accept-Encoding: a tablet's browser over HTTPS offers
 * brotli (fetch offers it only over HTTPS, and these servers are plain HTTP on loopback).
 */
const ACCEPT_ENCODING = process.env.BENCH_LOAD_ENCODING ?? "gzip, deflate, br";
const OWN_DATABASE = "clinro_load";
const TEMPLATE = process.env.BENCH_LOAD_TEMPLATE || undefined;
const KEEP = process.env.BENCH_LOAD_KEEP === "1";
/** How long to wait for the template to have no other session (a copy needs it alone). */
const TEMPLATE_WAIT_S = Number(process.env.BENCH_LOAD_TEMPLATE_WAIT_S ?? 600);
/** bench/scale/build.ts's SCALE_PASSWORD for its staff, else the bench's own accounts'. */
const PASSWORD = process.env.BENCH_LOAD_PASSWORD ?? (TEMPLATE ? "Scale&Bench28" : "Load&Bench42");
/** With BENCH_LOAD_TEMPLATE: the usernames that sign in (one column, `username`). */
const USERS_SQL =
  process.env.BENCH_LOAD_USERS_SQL ??
  `select username from users where password_hash like '$argon2%' order by id limit ${CLINICIANS}`;
const STUDY_ID = 101;
const JWT_SECRET = "bench-scale-load-signing-secret-0123456789abcdef";
const TARGET_P95_MS = 300;
const TARGET_SIGN_IN_P95_MS = 1500;
const TARGET_RSS_GROWTH = 0.1;
const CALLS = [
  "sign in",
  "announcements",
  "pending instruments",
  "search",
  "open participant",
  "instruments",
  "history",
  "definition",
  "submit",
  "events",
  "consents",
] as const;
type CallName = (typeof CALLS)[number];

// ---------------------------------------------------------------------------------------------
// The database.

type Clinician = { username: string; studyId: number; siteId: number };
type Person = { id: number; studyId: number; siteId: number; search: string };
type Prepared = { databaseUrl: string; clinicians: Clinician[]; people: Map<number, Person[]> };

function databaseUrl(name: string) {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function rowCounts(db: Database) {
  const [row] = await executeRows<{ submissions: number; events: number }>(
    db,
    sql`select (select count(*)::int from ${instrumentSubmissions}) as submissions,
               (select count(*)::int from ${participantEvents}) as events`,
  );
  return { submissions: Number(row!.submissions), events: Number(row!.events) };
}

async function dropOwnDatabase() {
  const admin = postgres(databaseUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${OWN_DATABASE}" WITH (FORCE)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * clinro_load afresh: a copy of the template (waiting for it to have no other session), or
 * migrated, the demo seed, and the bench's clinicians, one site each.
 */
async function buildOwnDatabase(): Promise<string> {
  if (TEMPLATE === "test" || TEMPLATE === OWN_DATABASE)
    throw new Error(`BENCH_LOAD_TEMPLATE=${TEMPLATE}: no`);
  await dropOwnDatabase();
  const admin = postgres(databaseUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    if (TEMPLATE) {
      const waitUntil = performance.now() + TEMPLATE_WAIT_S * 1000;
      for (;;) {
        try {
          await admin.unsafe(`CREATE DATABASE "${OWN_DATABASE}" TEMPLATE "${TEMPLATE}" STRATEGY FILE_COPY`);
          break;
        } catch (error) {
          if (
            !/being accessed by other users/.test((error as Error).message) ||
            performance.now() > waitUntil
          ) {
            throw error;
          }
          await sleep(5_000);
        }
      }
      return databaseUrl(OWN_DATABASE);
    }
    await admin.unsafe(`CREATE DATABASE "${OWN_DATABASE}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = databaseUrl(OWN_DATABASE);
  const handle = await openDatabase({ kind: "postgres", url });
  try {
    await handle.migrate();
    await seedDemo(handle.db);
    const hash = await hashPassword(PASSWORD);
    const studySites = await handle.db
      .select({ id: sites.id })
      .from(sites)
      .where(eq(sites.studyId, STUDY_ID))
      .orderBy(sites.id);
    for (let from = 0; from < CLINICIANS; from += 500) {
      const batch = Array.from({ length: Math.min(500, CLINICIANS - from) }, (_, offset) => from + offset);
      const made = await handle.db
        .insert(users)
        .values(
          batch.map((index) => ({
            username: `load${index}@bench.test`,
            passwordHash: hash,
            name: `Load Clinician ${index}`,
            nickname: `Load ${index}`,
            fname: "Load",
          })),
        )
        .returning({ id: users.id, username: users.username });
      await handle.db.insert(studyPermissions).values(
        made.map((user) => ({
          userId: user.id,
          studyId: STUDY_ID,
          role: ROLE_CODE.clinicalCoordinator,
          scope: ["ca", "cp"],
        })),
      );
      await handle.db
        .insert(sitePermissions)
        .values(
          made.map((user, index) => ({ userId: user.id, siteId: studySites[index % studySites.length]!.id })),
        );
    }
  } finally {
    await handle.close();
  }
  return url;
}

/** Who signs in, at which site, and the participants each site's clinicians look at. */
async function prepare(): Promise<Prepared> {
  const url = await buildOwnDatabase();
  const handle = await openDatabase({ kind: "postgres", url });
  try {
    const usernames = TEMPLATE
      ? (await executeRows<{ username: string }>(handle.db, sql.raw(USERS_SQL))).map((row) => row.username)
      : Array.from({ length: CLINICIANS }, (_, index) => `load${index}@bench.test`);
    if (usernames.length < CLINICIANS) {
      throw new Error(`${url} has ${usernames.length} accounts to sign in, not ${CLINICIANS}`);
    }
    // Each clinician's first site with participants in a study of theirs (lowest ids first).
    const placed = await executeRows<{ username: string; study_id: number; site_id: number }>(
      handle.db,
      sql`select distinct on (u.username) u.username, s.study_id, s.id as site_id
          from ${users} u
          join ${sitePermissions} p on p.user_id = u.id
          join ${sites} s on s.id = p.site_id
          join ${studyPermissions} sp on sp.user_id = u.id and sp.study_id = s.study_id
          where u.username in ${usernames.slice(0, CLINICIANS)}
            and exists (select 1 from ${participants} pt where pt.site_id = s.id)
          order by u.username, s.id`,
    );
    const bySite = new Map(placed.map((row) => [row.username, row]));
    const clinicians = usernames.slice(0, CLINICIANS).map((username) => {
      const row = bySite.get(username);
      if (!row) throw new Error(`${username} has no site with participants`);
      return { username, studyId: Number(row.study_id), siteId: Number(row.site_id) };
    });
    const siteIds = [...new Set(clinicians.map((clinician) => clinician.siteId))];
    // At most 200 a site, its first: what a clinician's weeks touch.
    const rows = await executeRows<{ id: number; study_id: number; site_id: number; lname: string }>(
      handle.db,
      sql`select id, study_id, site_id, lname from (
            select id, study_id, site_id, lname, row_number() over (partition by site_id order by id) as n
            from ${participants} where site_id in ${siteIds}) firsts
          where n <= 200`,
    );
    const people = new Map<number, Person[]>();
    for (const row of rows) {
      const list = people.get(Number(row.site_id)) ?? [];
      list.push({
        id: Number(row.id),
        studyId: Number(row.study_id),
        siteId: Number(row.site_id),
        search: row.lname.slice(0, 4),
      });
      people.set(Number(row.site_id), list);
    }
    return { databaseUrl: url, clinicians, people };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring calls.

class CallError extends Error {}

type Stats = {
  latencies: Map<CallName, number[]>;
  errors: Map<CallName, number>;
  samples: string[];
  /** Per server: every call's latency, for a p95 of each. */
  byServer: number[][];
  /** Every call: when it was made (ms from the run's start) and how long it took. */
  timeline: { name: CallName; at: number; ms: number }[];
  /** The run's start (performance.now()), set when the clinicians start. */
  start: number;
};

function newStats(servers: number): Stats {
  return {
    latencies: new Map(CALLS.map((name) => [name, []])),
    errors: new Map(CALLS.map((name) => [name, 0])),
    samples: [],
    byServer: Array.from({ length: servers }, () => []),
    timeline: [],
    start: 0,
  };
}

function failed(stats: Stats, name: CallName, detail: string) {
  stats.errors.set(name, stats.errors.get(name)! + 1);
  if (stats.samples.length < 10) stats.samples.push(`${name}: ${detail}`);
  return new CallError(name);
}

async function timed(
  stats: Stats,
  name: CallName,
  server: number,
  url: string,
  init: RequestInit,
  expected: number,
) {
  const started = performance.now();
  let response: Response;
  let body: Uint8Array;
  try {
    response = await fetch(url, init);
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw failed(stats, name, `${(error as Error).message} ${String((error as Error).cause ?? "")}`);
  }
  const elapsed = performance.now() - started;
  stats.latencies.get(name)!.push(elapsed);
  stats.byServer[server]!.push(elapsed);
  stats.timeline.push({ name, at: started - stats.start, ms: elapsed });
  if (response.status !== expected) {
    throw failed(stats, name, `${response.status} ${Buffer.from(body).toString("utf8").slice(0, 200)}`);
  }
  return { response, body };
}

const json = (body: Uint8Array) => JSON.parse(Buffer.from(body).toString("utf8")) as unknown;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A small fixed-seed generator (mulberry32): the same run each time. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** When clinician `index` signs in, ms from the start: waves of clinicians, each spread evenly. */
function signInAt(index: number) {
  const perWave = Math.ceil(CLINICIANS / WAVES);
  const wave = Math.floor(index / perWave);
  const inWave = index % perWave;
  return (wave * WAVE_GAP_S + (WAVE_SPREAD_S * inWave) / perWave) * 1000;
}

/** One clinician's session until `deadline`; answers what the server said it stored. */
async function clinician(
  index: number,
  me: Clinician,
  servers: readonly string[],
  prepared: Prepared,
  start: number,
  deadline: number,
  stats: Stats,
) {
  const next = random(index + 1);
  const stored = { submissions: 0, events: 0 };
  const definitions = new Map<string, SurveyDefinition>();
  let turn = index;
  /** The next server in turn, as a round-robin load balancer picks it. */
  const pick = () => turn++ % servers.length;
  // Never past the end of the run: a clinician thinking at the end makes no more calls.
  const think = () =>
    sleep(
      Math.min((THINK_MIN_S + next() * (THINK_MAX_S - THINK_MIN_S)) * 1000, deadline - performance.now()),
    );
  const studyId = me.studyId;

  await sleep(start + signInAt(index) - performance.now());
  let token = "";
  let userId = 0;
  for (;;) {
    if (performance.now() >= deadline) return stored;
    const server = pick();
    try {
      const { body } = await timed(
        stats,
        "sign in",
        server,
        `${servers[server]}/control/clinro/login`,
        {
          method: "POST",
          headers: { "content-type": "application/json", "accept-encoding": ACCEPT_ENCODING },
          body: JSON.stringify({ username: me.username, password: PASSWORD }),
        },
        200,
      );
      const answer = json(body) as { token: string; user?: { id: number } };
      token = answer.token;
      userId =
        answer.user?.id ??
        (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { id: number }).id;
      break;
    } catch (error) {
      if (!(error instanceof CallError)) throw error;
      await think();
    }
  }
  const auth = { authorization: `Bearer ${token}`, "accept-encoding": ACCEPT_ENCODING };
  /** One GET of the clinician's; answers its parsed body. */
  const get = async (name: CallName, path: string, headers: Record<string, string> = {}) => {
    const server = pick();
    const { body, response } = await timed(
      stats,
      name,
      server,
      `${servers[server]}${path}`,
      { headers: { ...auth, ...headers } },
      200,
    );
    return { body, response };
  };
  const people = prepared.people.get(me.siteId) ?? [];
  /** Runs one step after the think time, unless the run is over; false when it is. */
  const step = async (action: () => Promise<unknown>) => {
    await think();
    if (performance.now() >= deadline) return false;
    await action();
    return true;
  };

  try {
    // The inbox and the pending instruments: what the portal shows after signing in.
    if (!(await step(() => get("announcements", "/control/participants/me/announcements")))) return stored;
    for (let round = 0; ; round++) {
      if (
        !(await step(() =>
          get("pending instruments", `/control/pending_instruments?study_id=${studyId}`, {
            version: "3.4.0",
          }),
        ))
      ) {
        return stored;
      }
      const person = people[Math.floor(next() * people.length)]!;
      let found = person.id;
      if (
        !(await step(async () => {
          const { body } = await get(
            "search",
            `/control/studies/${studyId}/sites/${person.siteId}/clinro_search?search_value=${encodeURIComponent(person.search)}`,
          );
          const results = participantSearchResponse.parse(json(body)).response;
          found = results.find((result) => result.id === person.id)?.id ?? person.id;
        }))
      ) {
        return stored;
      }
      if (
        !(await step(() =>
          get("open participant", `/control/studies/${studyId}/sites/${person.siteId}/participants/${found}`),
        ))
      ) {
        return stored;
      }
      let instrument: { url: string; instrument_id: number } | undefined;
      if (
        !(await step(async () => {
          const { body } = await get(
            "instruments",
            `/control/participants/${found}/instruments/instances?study_id=${studyId}`,
          );
          const listed = instancesListResponse.parse(json(body)).instruments;
          instrument = listed.find((candidate) => candidate.url.endsWith("/cgi-s")) ?? listed[0];
        }))
      ) {
        return stored;
      }
      if (!(await step(() => get("history", `/control/participants/${found}/instrument_history/clinro`)))) {
        return stored;
      }
      if (!instrument) continue;
      const chosenInstrument = instrument;
      let definition: SurveyDefinition | undefined;
      if (
        !(await step(async () => {
          const { response, body } = await get("definition", `/control${chosenInstrument.url}`);
          definition = definitions.get(chosenInstrument.url);
          if (!definition) {
            const text = String(response.headers.get("content-type")).startsWith("application/zip")
              ? strFromU8(Object.values(unzipSync(body))[0]!)
              : Buffer.from(body).toString("utf8");
            definition = parseDefinitionOrThrow(JSON.parse(text));
            definitions.set(chosenInstrument.url, definition);
          }
        }))
      ) {
        return stored;
      }
      const survey = definition!;
      const answers = Object.fromEntries(
        survey.order.flatMap((id) => {
          const choices = survey.questions[id]?.choices;
          const first = choices ? Object.keys(choices)[0] : undefined;
          return first ? [[id, [chosen(survey, id, first)]]] : [];
        }),
      );
      if (
        !(await step(async () => {
          const payload = payloadFor(survey, answers, {
            user: { id: userId, username: me.username },
            instrumentId: chosenInstrument.instrument_id,
          });
          const server = pick();
          await timed(
            stats,
            "submit",
            server,
            `${servers[server]}/control/clinro/participant/${found}/instruments/${chosenInstrument.instrument_id}/submission`,
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
        }))
      ) {
        return stored;
      }
      if (
        !(await step(async () => {
          const now = new Date().toISOString();
          const events = ["delivered", "visible"].map((type) => ({
            type,
            timestamp: now,
            info: { instrument_id: chosenInstrument.instrument_id, study_id: studyId },
            study_id: studyId,
            participant: found,
          }));
          const server = pick();
          const { body } = await timed(
            stats,
            "events",
            server,
            `${servers[server]}/control/participants/me/events?platform=clinro`,
            {
              method: "POST",
              headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
              body: JSON.stringify(events),
            },
            200,
          );
          stored.events += (json(body) as { received: number }).received;
        }))
      ) {
        return stored;
      }
      if (round % 3 === 2) {
        const consents = `/control/v2/clinro/me/consents?study_id=${studyId}&site_id=${me.siteId}`;
        if (!(await step(() => get("consents", consents)))) return stored;
      }
    }
  } catch (error) {
    if (!(error instanceof CallError)) throw error;
    // A failed call ends this clinician's session (counted in the errors); the others go on.
    return stored;
  }
}

// ---------------------------------------------------------------------------------------------
// Memory.

async function residentKiB(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** The process's CPU time so far (user + system), in seconds. */
async function cpuSeconds(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name; in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The machine's CPU so far (/proc/stat): busy, stolen and all clock ticks of every core. Steal is
 * the time a virtual machine's cores waited for the host: the same bench on the same kind of
 * machine runs at another speed when the host is busy, and steal says so.
 */
async function machineTicks() {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle, iowait and steal are not busy.
  const all = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: all - ticks[3]! - ticks[4]! - ticks[7]!, steal: ticks[7]!, all };
}

/** Every PostgreSQL process's CPU so far, in seconds, by pid (backends come and go). */
async function postgresCpu() {
  const byPid = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, "utf8").catch(() => "");
    if (comm.trim() !== "postgres") continue;
    const seconds = await cpuSeconds(Number(entry)).catch(() => Number.NaN);
    if (Number.isFinite(seconds)) byPid.set(Number(entry), seconds);
  }
  return byPid;
}

type MemorySample = {
  at: number;
  rss: number[];
  cpu: number[];
  machine: { busy: number; steal: number; all: number };
  postgres: Map<number, number>;
};

function startSampling(pids: readonly number[], start: number) {
  const samples: MemorySample[] = [];
  const sample = async () => {
    const rss = await Promise.all(pids.map((pid) => residentKiB(pid).catch(() => Number.NaN)));
    const cpu = await Promise.all(pids.map((pid) => cpuSeconds(pid).catch(() => Number.NaN)));
    const [machine, postgres] = await Promise.all([machineTicks(), postgresCpu()]);
    samples.push({ at: (performance.now() - start) / 1000, rss, cpu, machine, postgres });
  };
  void sample();
  const timer = setInterval(() => void sample(), SAMPLE_S * 1000);
  return { samples, stop: () => clearInterval(timer) };
}

/** PostgreSQL's CPU seconds between two samples: each process's growth, a new one's whole time. */
function postgresCpuBetween(from: MemorySample, to: MemorySample) {
  let seconds = 0;
  for (const [pid, now] of to.postgres) seconds += now - (from.postgres.get(pid) ?? 0);
  return seconds;
}

const median = (values: readonly number[]) => {
  const ordered = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (ordered.length === 0) return Number.NaN;
  const middle = Math.floor(ordered.length / 2);
  return ordered.length % 2 === 1 ? ordered[middle]! : (ordered[middle - 1]! + ordered[middle]!) / 2;
};
const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(0)).padStart(7);

/** A line of memory-probe.mjs. */
type ProbeLine = {
  at: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  requests: { count: number; all: number[] };
};

/** The server's own time for its requests over the run (memory-probe.mjs measures it). */
function serverSide(lines: readonly ProbeLine[]) {
  const all = lines.flatMap((line) => line.requests?.all ?? []).sort((a, b) => a - b);
  return `p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms`;
}

// ---------------------------------------------------------------------------------------------
// Main.

async function postgresVersion(url: string) {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client<{ server_version: string }[]>`show server_version`;
    return row!.server_version;
  } finally {
    await client.end({ timeout: 5 });
  }
}

const durationS = MINUTES * 60;
const cpu = cpus();
console.log(
  `bench:scale:load — ${CLINICIANS} clinicians, ${MINUTES} min, two servers on one PostgreSQL; ` +
    `${cpu.length} × ${cpu[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} at the start (other work on the machine shows in the figures)`,
);
const preparing = performance.now();
const prepared = await prepare();
console.log(
  `database ${OWN_DATABASE}${TEMPLATE ? ` (a copy of ${TEMPLATE})` : ""} (PostgreSQL ${await postgresVersion(prepared.databaseUrl)}): ` +
    `${prepared.clinicians.length} clinicians at ${new Set(prepared.clinicians.map((c) => c.siteId)).size} sites, ` +
    `ready in ${((performance.now() - preparing) / 1000).toFixed(0)} s`,
);
const counting = await openDatabase({ kind: "postgres", url: prepared.databaseUrl, maxConnections: 1 });
const before = await rowCounts(counting.db);

// One after the other: the second finds the migrations done.
const servers: ServerProcess[] = [];
const memoryDir = await mkdtemp(path.join(tmpdir(), "clinro-load-memory-"));
const memoryFiles = [0, 1].map((index) => path.join(memoryDir, `server-${index + 1}.jsonl`));
try {
  for (let index = 0; index < 2; index++) {
    // Each server samples its own process.memoryUsage() (memory-probe.mjs): the JS heap beside RSS.
    const env = {
      SEED: "none",
      LOG_LEVEL: "error",
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ""} --import=${path.join(import.meta.dirname, "memory-probe.mjs")}`.trim(),
      BENCH_MEMORY_FILE: memoryFiles[index]!,
      BENCH_MEMORY_INTERVAL_MS: String(SAMPLE_S * 1000),
    };
    servers.push(await startServerProcess({ databaseUrl: prepared.databaseUrl, jwtSecret: JWT_SECRET, env }));
  }
  const urls = servers.map((server) => server.url);
  console.log(`servers: ${urls.join(", ")} (pids ${servers.map((server) => server.child.pid).join(", ")})`);
  const stats = newStats(servers.length);
  const start = performance.now();
  stats.start = start;
  const startEpoch = Date.now();
  // The client's own waits: its event loop's delays and its CPU, to read its latencies by.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const clientCpu = process.cpuUsage();
  const deadline = start + durationS * 1000;
  const memory = startSampling(
    servers.map((server) => server.child.pid!),
    start,
  );
  const progress = setInterval(() => {
    const calls = [...stats.latencies.values()].reduce((sum, list) => sum + list.length, 0);
    const errors = [...stats.errors.values()].reduce((sum, count) => sum + count, 0);
    const last = memory.samples.at(-1);
    console.log(
      `  ${((performance.now() - start) / 1000).toFixed(0).padStart(4)} s: ${calls} calls, ${errors} errors, ` +
        `signed in ${stats.latencies.get("sign in")!.length}, RSS ${last?.rss.map((kib) => `${(kib / 1024).toFixed(0)} MiB`).join(" / ")}, ` +
        `load ${loadavg()[0]!.toFixed(1)}`,
    );
  }, 60_000);
  const results = await Promise.all(
    prepared.clinicians.map((me, index) => clinician(index, me, urls, prepared, start, deadline, stats)),
  );
  const elapsed = (performance.now() - start) / 1000;
  clearInterval(progress);
  memory.stop();
  const totals = results.reduce(
    (sum, one) => ({ submissions: sum.submissions + one.submissions, events: sum.events + one.events }),
    { submissions: 0, events: 0 },
  );
  const after = await rowCounts(counting.db);

  // The figures.
  const requests = [...stats.latencies.values()].reduce((sum, list) => sum + list.length, 0);
  const errors = [...stats.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `\n${CLINICIANS} clinicians, ${elapsed.toFixed(0)} s, ${requests} calls (${(requests / elapsed).toFixed(1)}/s), ` +
      `${errors} errors; sign-in waves: ${WAVES} of ${Math.ceil(CLINICIANS / WAVES)}, ${WAVE_GAP_S} s apart, each over ${WAVE_SPREAD_S} s; ` +
      `load average ${loadavg()[0]!.toFixed(1)} at the end`,
  );
  console.log("  call                   count     p50     p95     p99     max  (ms)  target p95  errors");
  let allMet = errors === 0;
  for (const name of CALLS) {
    const sorted = [...stats.latencies.get(name)!].sort((a, b) => a - b);
    const target = name === "sign in" ? TARGET_SIGN_IN_P95_MS : TARGET_P95_MS;
    const p95 = percentile(sorted, 95);
    const met = !(p95 > target);
    allMet &&= met;
    console.log(
      `  ${name.padEnd(20)} ${String(sorted.length).padStart(7)} ${ms(percentile(sorted, 50))} ${ms(p95)} ` +
        `${ms(percentile(sorted, 99))} ${ms(sorted.at(-1) ?? Number.NaN)}        ${`<= ${target}`.padStart(8)} ${met ? "met   " : "MISSED"} ${String(stats.errors.get(name)).padStart(4)}`,
    );
  }
  const allButSignIn = CALLS.filter((name) => name !== "sign in")
    .flatMap((name) => stats.latencies.get(name)!)
    .sort((a, b) => a - b);
  console.log(
    `  every call but sign-in ${String(allButSignIn.length).padStart(4)} ${ms(percentile(allButSignIn, 50))} ${ms(percentile(allButSignIn, 95))} ${ms(percentile(allButSignIn, 99))} ${ms(allButSignIn.at(-1) ?? Number.NaN)}`,
  );
  // The waves against the rest: every call made before the last sign-in was answered, and after.
  const signIns = stats.timeline.filter((entry) => entry.name === "sign in");
  const wavesEnd = Math.max(0, ...signIns.map((entry) => entry.at + entry.ms));
  console.log(
    `\n  split at ${(wavesEnd / 1000).toFixed(0)} s, when the last sign-in was answered: p95 (ms) of the calls made ` +
      `while the waves were signing in, and after (target ${TARGET_P95_MS})`,
  );
  console.log("  call                  during: count     p95    after: count     p50     p95     p99");
  for (const name of [...CALLS.filter((call) => call !== "sign in"), "every call but sign-in"] as const) {
    const of = (during: boolean) =>
      stats.timeline
        .filter(
          (entry) => entry.name !== "sign in" && (name === "every call but sign-in" || entry.name === name),
        )
        .filter((entry) => entry.at < wavesEnd === during)
        .map((entry) => entry.ms)
        .sort((a, b) => a - b);
    const during = of(true);
    const after = of(false);
    console.log(
      `  ${name.padEnd(22)} ${String(during.length).padStart(13)} ${ms(percentile(during, 95))} ${String(after.length).padStart(13)} ` +
        `${ms(percentile(after, 50))} ${ms(percentile(after, 95))} ${ms(percentile(after, 99))} ${after.length === 0 ? "-" : percentile(after, 95) <= TARGET_P95_MS ? "met" : "MISSED"}`,
    );
  }
  // A line a minute: the calls, their p95, and where the machine's CPU went.
  console.log(
    "\n  minute   calls  p95 (ms)  sign-ins  sign-in p95   machine busy / stolen  PostgreSQL CPU  servers CPU (% of one core)",
  );
  for (let minute = 0; minute * 60 < elapsed; minute++) {
    const from = minute * 60_000;
    const to = from + 60_000;
    const inMinute = stats.timeline.filter((entry) => entry.at >= from && entry.at < to);
    const calls = inMinute
      .filter((entry) => entry.name !== "sign in")
      .map((entry) => entry.ms)
      .sort((a, b) => a - b);
    const signs = inMinute
      .filter((entry) => entry.name === "sign in")
      .map((entry) => entry.ms)
      .sort((a, b) => a - b);
    const near = (seconds: number) =>
      memory.samples.reduce<MemorySample | undefined>(
        (best, sample) =>
          !best || Math.abs(sample.at - seconds) < Math.abs(best.at - seconds) ? sample : best,
        undefined,
      );
    const first = near(from / 1000);
    const last = near(Math.min(to / 1000, elapsed));
    if (!first || !last || last === first) continue;
    const wall = last.at - first.at;
    const ticks = last.machine.all - first.machine.all;
    const machine = (last.machine.busy - first.machine.busy) / ticks;
    const stolen = (last.machine.steal - first.machine.steal) / ticks;
    const serverCpu = last.cpu.map((value, index) => (value - first.cpu[index]!) / wall);
    console.log(
      `  ${String(minute).padStart(6)} ${String(calls.length).padStart(7)} ${ms(percentile(calls, 95))}   ${String(signs.length).padStart(7)} ` +
        `${ms(percentile(signs, 95))}      ${`${(machine * 100).toFixed(0)} % / ${(stolen * 100).toFixed(0)} %`.padStart(20)}  ` +
        `${`${((postgresCpuBetween(first, last) / wall) * 100).toFixed(0)} %`.padStart(14)}  ` +
        `${serverCpu.map((value) => `${(value * 100).toFixed(0)} %`).join(" + ")}`,
    );
  }
  loopDelay.disable();
  const clientCpuS = (() => {
    const used = process.cpuUsage(clientCpu);
    return (used.user + used.system) / 1e6;
  })();
  console.log(
    `  the client (one Node process): CPU ${clientCpuS.toFixed(0)} s (${((clientCpuS / elapsed) * 100).toFixed(0)} % of one core), ` +
      `event loop delay p50 ${(loopDelay.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
  );
  const inside = await Promise.all(
    memoryFiles.map(async (file) =>
      (await readFile(file, "utf8").catch(() => ""))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ProbeLine)
        .map((entry) => ({ ...entry, at: (entry.at - startEpoch) / 1000 })),
    ),
  );
  stats.byServer.forEach((list, server) => {
    const sorted = [...list].sort((a, b) => a - b);
    const cpuUsed =
      (memory.samples.at(-1)?.cpu[server] ?? Number.NaN) - (memory.samples[0]?.cpu[server] ?? Number.NaN);
    console.log(
      `  server ${server + 1}: ${sorted.length} calls, p95 ${percentile(sorted, 95).toFixed(0)} ms at the client, ` +
        `${serverSide(inside[server]!)} in the server, ` +
        `CPU ${cpuUsed.toFixed(0)} s (${((cpuUsed / elapsed) * 100).toFixed(0)} % of one core)`,
    );
  });
  for (const sample of stats.samples) console.log(`  error: ${sample}`);
  const newSubmissions = after.submissions - before.submissions;
  const newEvents = after.events - before.events;
  const same = newSubmissions === totals.submissions && newEvents === totals.events;
  allMet &&= same;
  console.log(
    `  rows: the database has ${newSubmissions} new submissions and ${newEvents} new events; the clients were told ` +
      `${totals.submissions} and ${totals.events}: ${same ? "equal" : "NOT EQUAL"}`,
  );

  // Memory: a line a minute, then the growth over the window.
  console.log(`  resident memory (VmRSS, MiB), sampled every ${SAMPLE_S} s:`);
  console.log(
    `    ${"at".padStart(6)}  ${servers.map((_, index) => `server ${index + 1}`.padStart(9)).join("")}`,
  );
  for (let minute = 0; minute <= MINUTES; minute += MINUTES > 2 ? 1 : 0.25) {
    const near = memory.samples.reduce<MemorySample | undefined>(
      (best, sample) =>
        !best || Math.abs(sample.at - minute * 60) < Math.abs(best.at - minute * 60) ? sample : best,
      undefined,
    );
    if (!near) continue;
    console.log(
      `    ${`${near.at.toFixed(0)} s`.padStart(6)}  ${near.rss.map((kib) => (kib / 1024).toFixed(1).padStart(9)).join("")}`,
    );
  }
  const windowS = Math.min(8 * 60, 0.8 * elapsed);
  const windowStart = elapsed - windowS;
  for (const [index] of servers.entries()) {
    const of = (from: number, to: number) =>
      median(memory.samples.filter((s) => s.at >= from && s.at < to).map((s) => s.rss[index]!));
    const first = of(windowStart, windowStart + 30);
    const last = of(elapsed - 30, elapsed + 1);
    const peak = Math.max(...memory.samples.map((s) => s.rss[index]!).filter(Number.isFinite));
    const growth = last / first - 1;
    const met = growth <= TARGET_RSS_GROWTH;
    allMet &&= met;
    console.log(
      `  server ${index + 1}: RSS ${(first / 1024).toFixed(1)} MiB at ${windowStart.toFixed(0)} s → ${(last / 1024).toFixed(1)} MiB at the end ` +
        `(${(growth * 100).toFixed(1)} % over the last ${(windowS / 60).toFixed(1)} min; target <= 10 %: ${met ? "met" : "MISSED"}), peak ${(peak / 1024).toFixed(1)} MiB`,
    );
    // The JS heap from inside: the least heap used in each 30 s (what survived the collections).
    const least = (field: "heapUsed" | "heapTotal" | "external", from: number, to: number) =>
      Math.min(
        ...inside[index]!.filter((entry) => entry.at >= from && entry.at < to).map((entry) => entry[field]),
      ) /
      2 ** 20;
    const heapFrom = least("heapUsed", windowStart, windowStart + 30);
    const heapTo = least("heapUsed", elapsed - 30, elapsed + 1);
    console.log(
      `            JS heap used (least in 30 s) ${heapFrom.toFixed(1)} → ${heapTo.toFixed(1)} MiB (${((heapTo / heapFrom - 1) * 100).toFixed(1)} %), ` +
        `heap total ${least("heapTotal", windowStart, windowStart + 30).toFixed(0)} → ${least("heapTotal", elapsed - 30, elapsed + 1).toFixed(0)} MiB, ` +
        `external ${least("external", windowStart, windowStart + 30).toFixed(1)} → ${least("external", elapsed - 30, elapsed + 1).toFixed(1)} MiB`,
    );
  }
  console.log(allMet ? "\nEvery target met." : "\nSome targets missed: see above.");
} finally {
  await Promise.all(servers.map((server) => stopServerProcess(server)));
  await counting.close();
  await rm(memoryDir, { recursive: true, force: true });
  if (!KEEP) await dropOwnDatabase();
}

/**
 * `npm run bench:scale:reads`: every clinician read call on the scale database
 * (bench/scale/build.ts: clinro_scale, and the demo-sized clinro_scale_demo for flatness), through
 * HTTP against a real server process (node server/main.ts on that database), each beside the bare
 * SQL of the same answer sent straight to the driver.
 *
 * The caller is the bench user (staff0001@scale.test, clinical coordinator of site 101, whose
 * 2,000 participants are the same on both databases). The servers are first warmed as a server
 * that has been serving is: every call SERVER_WARM_UP times, unmeasured, so that V8 has compiled
 * the paths they share (Fastify, the driver, compression) before any is timed; measured cold, the
 * first calls' figures held the compiler's work on the machine's second core. Then each call is made
 * CALLS times (after WARM_UP of its own), its parameters turning through the site's
 * participants; each HTTP call is followed by
 * its bare SQL with the same parameters (sent as the server sends its own: not a prepared
 * statement), so both meet the same machine load. For the lists, the bench refuses to go on
 * when the answer's items and the bare rows differ in number: both must read the same answer (the
 * search's bare SQL once read 50 rows where the call answers up to 200). The client is
 * node:http on a kept-alive connection offering the encodings a tablet's browser offers over
 * HTTPS (gzip, deflate, br: the server answers brotli); SCALE_READS_ENCODING=gzip offers gzip
 * alone, as the bench did before the server sent brotli.
 *
 * Prints, per call and database: p50 and p95 through HTTP and bare, the ratio of the p95s (target:
 * at most 2x), and the full database's HTTP p95 against the demo's (target: at most 1.5x).
 * Then, with no target, what each answer costs on its own (answerCost: the JSON, its compression
 * and decompression in the encoding the server chose, and the parse, which the HTTP call pays and
 * the bare SQL does not) and the floor of any call on the machine (FLOOR_CALL). Asserts nothing.
 * SCALE_READS_DATABASES=clinro_scale (a comma list) measures fewer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { cpus, loadavg, totalmem } from "node:os";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import postgres from "postgres";
import { SEARCH_RESULT_LIMIT } from "../../core/contracts/participant.ts";
import {
  BENCH_SITE_ID,
  BENCH_STUDY_ID,
  BENCH_USERNAME,
  SCALE_DATABASES,
  SCALE_PASSWORD,
  databaseUrl,
} from "./build.ts";

const CALLS = Number(process.env.SCALE_READS_CALLS ?? 200);
const WARM_UP = 20;
const SERVER_WARM_UP = Number(process.env.SCALE_READS_SERVER_WARM_UP ?? 300);
const USER_ID = 1;
const STUDY = BENCH_STUDY_ID;
const SITE = BENCH_SITE_ID;
const CONSENT_ID = 1;
/** What the client offers in Accept-Encoding: by default what Safari and Chrome offer over HTTPS. */
const ACCEPT_ENCODING = process.env.SCALE_READS_ENCODING ?? "gzip, deflate, br";

/**
 * The encodings the server may answer in, each as the server writes it (server/app.ts: brotli at
 * quality 4, gzip at level 6; under 1 KiB it leaves an answer as it is) and as the client reads it.
 */
const ENCODINGS = {
  identity: { pack: (text: string) => Buffer.from(text), unpack: (bytes: Buffer) => bytes },
  br: {
    pack: (text: string) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    unpack: (bytes: Buffer) => brotliDecompressSync(bytes),
  },
  gzip: {
    pack: (text: string) => gzipSync(text, { level: 6 }),
    unpack: (bytes: Buffer) => gunzipSync(bytes),
  },
} as const;
type Encoding = keyof typeof ENCODINGS;
const isEncoding = (value: unknown): value is Encoding => typeof value === "string" && value in ENCODINGS;

type Call = {
  name: string;
  /** The i-th call's path. */
  path: (index: number) => string;
  headers?: Record<string, string>;
  /** The bare SQL statements of the same answer, for the i-th call. */
  bare: (index: number) => [string, unknown[]][];
  /**
   * For a list: how many items the HTTP answer holds, which must be how many rows the first bare
   * statement read (at most `cap` of them, where the call reads one more to tell there are more):
   * the two ways must fetch the same answer for their times to compare.
   */
  items?: { count: (answer: unknown) => number; cap?: number };
};

/** The i-th participant of the bench site (1..2000), in a stride that visits them all. */
const participantOf = (index: number) => 1 + ((index * 7919) % 2000);
const SEARCH_TERMS = ["ander", "Mart", "son", "S101-0012", "ia", "Thomsen", "ross", "0019", "kowal", "zqxv"];

const ACCESS = `join study_permissions sp on sp.study_id = p.study_id and sp.user_id = ${USER_ID}
  join site_permissions sip on sip.site_id = p.site_id and sip.user_id = ${USER_ID}`;

/** The bare read of a participant's deliveries: the columns the two instrument lists answer. */
const PARTICIPANT_DELIVERIES = `select ins.id, ins.display_name, ins.instrument_type, ins.permissions, ins.visible_days,
    ins.metadata, ins.study_id, ins.slug, ii.id, ii.start_date, ii.expiration, ii.completion,
    ii.who_completed, u.name
  from participants p ${ACCESS}
  join instrument_instances ii on ii.participant_id = p.id
  join instruments ins on ins.id = ii.instrument_id and ins.study_id = p.study_id
  left join users u on u.id = ii.who_completed
  where p.id = $1 and p.study_id = $2 and ins.instrument_type in ('CLINRO', 'ANNOUNCEMENT')
    and (ins.retired_at is null or ii.completion is not null)
  order by ii.start_date, ii.id`;

const CALLS_MEASURED: Call[] = [
  {
    name: "participant (home)",
    path: (i) => `/control/studies/${STUDY}/sites/${SITE}/participants/${participantOf(i)}`,
    bare: (i) => [
      [
        `select p.*, s.name as study_name,
           (select count(*) from instrument_instances ii join instruments ins on ins.id = ii.instrument_id
            where ii.participant_id = p.id and ins.instrument_type = 'CLINRO') as total,
           (select count(ii.completion) from instrument_instances ii join instruments ins on ins.id = ii.instrument_id
            where ii.participant_id = p.id and ins.instrument_type = 'CLINRO') as completed
         from participants p join studies s on s.id = p.study_id ${ACCESS}
         where p.id = $1 and p.study_id = $2 and p.site_id = $3`,
        [participantOf(i), STUDY, SITE],
      ],
    ],
  },
  {
    name: "instrument instances (home)",
    path: (i) => `/control/participants/${participantOf(i)}/instruments/instances?study_id=${STUDY}`,
    bare: (i) => [[PARTICIPANT_DELIVERIES, [participantOf(i), STUDY]]],
  },
  {
    name: "forms list (home, older)",
    path: (i) => `/control/clinro/participants/${participantOf(i)}/instruments?study_id=${STUDY}`,
    bare: (i) => [[PARTICIPANT_DELIVERIES, [participantOf(i), STUDY]]],
  },
  {
    name: "instrument history",
    path: (i) => `/control/participants/${participantOf(i)}/instrument_history/clinro`,
    bare: (i) => [
      [
        `select s.id, s.instrument_instance_id, s.completed_at, s.version_number, s.scores, ins.id, ins.display_name, u.name
         from participants p ${ACCESS}
         join instrument_submissions s on s.participant_id = p.id
         join instruments ins on ins.id = s.instrument_id and ins.study_id = p.study_id
         join users u on u.id = s.submitted_by
         where p.id = $1 and ins.instrument_type = 'CLINRO'
         order by s.completed_at desc, s.id desc`,
        [participantOf(i)],
      ],
      [
        `select ii.id, ii.start_date, ii.expiration, ins.id, ins.display_name, ins.permissions, ins.study_id, ins.slug
         from instrument_instances ii join instruments ins on ins.id = ii.instrument_id
         where ii.participant_id = $1 and ins.study_id = $2 and ins.instrument_type = 'CLINRO'
           and ii.completion is null and ii.start_date <= now()
           and (ii.expiration is null or ii.expiration > now() or ins.metadata #>> '{schedule,recurring,scheme}' = 'persistent')
         order by ii.start_date, ii.id`,
        [participantOf(i), STUDY],
      ],
    ],
  },
  {
    name: "pending instruments",
    items: { count: (answer) => (answer as { instruments: unknown[] }).instruments.length, cap: 500 },
    path: () => `/control/pending_instruments?study_id=${STUDY}`,
    headers: { version: "3.4.0" },
    bare: () => [
      [
        `select p.id, p.subject_id, p.site_id, ins.id, ins.study_id, ins.display_name, ins.permissions,
           ins.slug, ii.id, ii.start_date, ii.expiration
         from instrument_instances ii
         join instruments ins on ins.id = ii.instrument_id
         join participants p on p.id = ii.participant_id and p.study_id = ins.study_id
         ${ACCESS}
         where ins.instrument_type = 'CLINRO' and ins.retired_at is null and p.study_id = $1
           and ii.completion is null and ii.start_date <= now()
           and (ii.expiration is null or ii.expiration > now() or ins.metadata #>> '{schedule,recurring,scheme}' = 'persistent')
         order by ii.start_date, ii.id limit 501`,
        [STUDY],
      ],
    ],
  },
  {
    name: "consents list",
    path: () => `/control/v2/clinro/me/consents?study_id=${STUDY}&site_id=${SITE}`,
    bare: () => [
      [
        `select c.id, c.study_id, c.title, c.type, c.version, c.date_deployed,
           (select count(*) from participants p
            join consent_participants cp on cp.participant_id = p.id and cp.consent_id = c.id
            where p.study_id = c.study_id and p.site_id = $2 and cp.status not in ('complete', 'declined'))
         from consents c
         where c.study_id = $1 and c.retired_at is null
           and exists (select 1 from site_permissions x where x.user_id = ${USER_ID} and x.site_id = $2)
         order by c.study_id, c.title, c.id`,
        [STUDY, SITE],
      ],
    ],
  },
  {
    name: "consent participants by status (2,000)",
    items: {
      count: (answer) =>
        (answer as { groups: { participants: unknown[] }[] }).groups.reduce(
          (sum: number, group: { participants: unknown[] }) => sum + group.participants.length,
          0,
        ),
    },
    path: () => `/control/v2/clinro/me/consents/${CONSENT_ID}?site_id=${SITE}`,
    bare: () => [
      [
        `select p.id, p.fname, p.lname, p.subject_id, p.email, cp.status, cp.version
         from participants p
           cross join lateral (select cp.status, cp.version from consent_participants cp
             where cp.consent_id = $1 and cp.participant_id = p.id offset 0) cp
         where p.study_id = $2 and p.site_id = $3
           and exists (select 1 from site_permissions x where x.user_id = ${USER_ID} and x.site_id = $3)
         order by lower(p.lname), lower(p.fname), p.id`,
        [CONSENT_ID, STUDY, SITE],
      ],
    ],
  },
  {
    name: "search",
    items: { count: (answer) => (answer as { response: unknown[] }).response.length },
    path: (i) =>
      `/control/studies/${STUDY}/sites/${SITE}/clinro_search?search_value=${encodeURIComponent(SEARCH_TERMS[i % SEARCH_TERMS.length]!)}`,
    bare: (i) => [
      [
        `select p.id, p.fname, p.lname, p.site_id, p.study_id, p.subject_id, p.date_of_birth
         from participants p
         where p.study_id = $1 and p.site_id = $2
           and exists (select 1 from site_permissions x where x.user_id = ${USER_ID} and x.site_id = $2)
           and (p.lname ilike $3 or p.fname ilike $3 or p.subject_id ilike $3)
         order by lower(p.lname), lower(p.fname), p.id limit ${SEARCH_RESULT_LIMIT}`,
        [STUDY, SITE, `%${SEARCH_TERMS[i % SEARCH_TERMS.length]}%`],
      ],
    ],
  },
  {
    name: "announcements",
    items: { count: (answer) => (answer as { announcements: unknown[] }).announcements.length },
    path: () => `/control/participants/me/announcements`,
    bare: () => [
      [
        `select a.id, a.sent_at, a.title, a.content, a.study_id, s.name, a.site_id, si.label, u.name, r.read_at
         from announcements a join studies s on s.id = a.study_id
         left join sites si on si.id = a.site_id
         left join users u on u.id = a.author_user_id
         left join announcement_reads r on r.announcement_id = a.id and r.user_id = $1
         where exists (select 1 from study_permissions x where x.user_id = $1 and x.study_id = a.study_id)
           and (a.site_id is null or exists (select 1 from site_permissions x where x.user_id = $1 and x.site_id = a.site_id))
         order by a.id desc`,
        [USER_ID],
      ],
    ],
  },
  {
    name: "participant list (first page)",
    items: { count: (answer) => (answer as { participants: unknown[] }).participants.length, cap: 50 },
    path: () => `/control/studies/${STUDY}/sites/${SITE}/participants?sort=last_name&order=asc&limit=50`,
    bare: () => [
      [
        `select p.id, p.fname, p.lname, p.subject_id, p.date_of_birth, p.enrolled_at, lower(p.lname), lower(p.fname),
           (select count(*) from participants counted where counted.study_id = $1 and counted.site_id = $2)
         from participants p
         where p.study_id = $1 and p.site_id = $2
           and exists (select 1 from site_permissions x where x.user_id = ${USER_ID} and x.site_id = $2)
         order by lower(p.lname), lower(p.fname), p.id limit 51`,
        [STUDY, SITE],
      ],
    ],
  },
];

/**
 * Not a clinician's call and not held to the targets: the floor of any call on this machine. The
 * health call is one HTTP request and one `select 1` (no session, no row), beside that `select 1`
 * bare. Its p95 against its p50 is the machine's own tail for a request that crosses three
 * processes (the client, the server, PostgreSQL) where the bare statement crosses two; a call
 * whose bare SQL takes about a millisecond cannot be within 2x at p95 by less than that tail.
 */
const FLOOR_CALL: Call = {
  name: "/healthz (select 1)",
  path: () => "/healthz",
  bare: () => [["select 1", []]],
};

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A Markdown table, each column as wide as its widest cell (pasted as is into docs/scaling.md). */
function printTable(header: string[], rows: string[][]) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

async function startServer(database: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl(database),
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED: "none",
      JWT_SECRET: "scale-reads-bench-secret-".repeat(2),
      LOGIN_MAX_FAILURES: "1000",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (answer.ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server on ${database} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type Figures = Map<
  string,
  { http: number[]; bare: number[]; bytes: number; encoding?: string; sample?: unknown }
>;

type Target = {
  database: string;
  server: ChildProcess;
  sql: postgres.Sql;
  get: (
    path: string,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; bytes: number; encoding: string; body: unknown }>;
  figures: Figures;
};

async function open(database: string, port: number): Promise<Target> {
  const server = await startServer(database, port);
  const login = await fetch(`http://127.0.0.1:${port}/control/clinro/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: BENCH_USERNAME, password: SCALE_PASSWORD }),
  });
  if (!login.ok) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; bytes: number; encoding: string; body: unknown }>((resolve, reject) => {
      const request = http.get(
        `http://127.0.0.1:${port}${path}`,
        {
          agent,
          headers: { authorization: `Bearer ${token}`, "accept-encoding": ACCEPT_ENCODING, ...headers },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("error", reject);
          answer.on("end", () => {
            const raw = Buffer.concat(chunks);
            const encoding = answer.headers["content-encoding"] ?? "identity";
            if (!isEncoding(encoding)) {
              reject(new Error(`${path} answered in ${encoding}, which the bench does not read`));
              return;
            }
            const bytes = ENCODINGS[encoding].unpack(raw);
            const body: unknown = JSON.parse(bytes.toString("utf8"));
            resolve({ status: answer.statusCode ?? 0, bytes: bytes.length, encoding, body });
          });
        },
      );
      request.on("error", reject);
    });
  const sql = postgres(databaseUrl(database), { max: 1, onnotice: () => {} });
  return { database, server, sql, get, figures: new Map() };
}

/** The i-th HTTP call's answer; anything but a 200 stops the bench. */
async function answered(target: Target, call: Call, index: number) {
  const answer = await target.get(call.path(index), call.headers);
  if (answer.status !== 200) {
    throw new Error(`${call.name}: ${call.path(index)} answered ${answer.status} on ${target.database}`);
  }
  return answer;
}

/** Every call SERVER_WARM_UP times on every server and bare, unmeasured (the answers still checked). */
async function warmUp(targets: Target[]) {
  const started = performance.now();
  for (let index = 0; index < SERVER_WARM_UP; index += 1) {
    for (const call of [...CALLS_MEASURED, FLOOR_CALL]) {
      for (const target of targets) {
        await answered(target, call, index);
        for (const [statement, parameters] of call.bare(index)) {
          await target.sql.unsafe(statement, parameters as never[]);
        }
      }
    }
  }
  console.log(
    `  servers warmed: every call ${SERVER_WARM_UP} times on each, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Each call's HTTP request then its bare SQL, on each database in turn (the first one turning
 * at every call), so that both databases and both ways meet the same moments of machine load.
 */
async function measure(targets: Target[]) {
  for (const call of [...CALLS_MEASURED, FLOOR_CALL]) {
    for (const target of targets) target.figures.set(call.name, { http: [], bare: [], bytes: 0 });
    for (let index = 0; index < WARM_UP + CALLS; index += 1) {
      for (let turn = 0; turn < targets.length; turn += 1) {
        const target = targets[(index + turn) % targets.length]!;
        let started = performance.now();
        const answer = await answered(target, call, index);
        const httpMs = performance.now() - started;
        started = performance.now();
        const read: number[] = [];
        for (const [statement, parameters] of call.bare(index)) {
          read.push((await target.sql.unsafe(statement, parameters as never[])).length);
        }
        const bareMs = performance.now() - started;
        if (call.items) {
          const items = call.items.count(answer.body);
          const rows = Math.min(read[0]!, call.items.cap ?? Number.POSITIVE_INFINITY);
          if (items !== rows) {
            throw new Error(
              `${call.name} on ${target.database}: HTTP answered ${items} items, the bare SQL read ${rows} rows`,
            );
          }
        }
        if (index >= WARM_UP) {
          const entry = target.figures.get(call.name)!;
          entry.http.push(httpMs);
          entry.bare.push(bareMs);
          entry.bytes = Math.max(entry.bytes, answer.bytes);
          if (answer.bytes >= entry.bytes) {
            entry.sample = answer.body;
            entry.encoding = answer.encoding;
          }
        }
      }
    }
    for (const target of targets) {
      const entry = target.figures.get(call.name)!;
      console.log(
        `  ${target.database}: ${call.name}: HTTP p95 ${percentile(entry.http, 95).toFixed(1)} ms, bare p95 ${percentile(entry.bare, 95).toFixed(1)} ms`,
      );
    }
  }
}

const wanted = (process.env.SCALE_READS_DATABASES ?? `${SCALE_DATABASES.demo},${SCALE_DATABASES.full}`).split(
  ",",
);
const basePort = 18_800 + Math.floor(Math.random() * 100);
const targets: Target[] = [];
try {
  for (const [index, database] of wanted.entries()) targets.push(await open(database, basePort + index));
  await warmUp(targets);
  await measure(targets);
} finally {
  for (const target of targets) {
    await target.sql.end({ timeout: 5 });
    target.server.kill("SIGTERM");
  }
}
const results = new Map(targets.map((target) => [target.database, target.figures]));

const cpu = cpus();
console.log(
  `\nMachine: ${cpu.length} × ${cpu[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);
console.log(
  `${CALLS} calls each on warmed servers (${SERVER_WARM_UP} of each call first), p95 in ms (targets: HTTP at most 2x bare SQL; full at most 1.5x demo)\n`,
);
const full = results.get(SCALE_DATABASES.full);
const demo = results.get(SCALE_DATABASES.demo);
const header = [
  "call",
  "answer KB",
  "HTTP p50",
  "bare p50",
  "HTTP p95",
  "bare p95",
  "HTTP/bare p95",
  "demo HTTP p50",
  "demo HTTP p95",
  "full/demo p95",
];
const rows: string[][] = [];
for (const call of CALLS_MEASURED) {
  const main = full?.get(call.name) ?? demo?.get(call.name);
  if (!main) continue;
  const small = demo?.get(call.name);
  const ratio = percentile(main.http, 95) / percentile(main.bare, 95);
  const flat = full && small ? percentile(main.http, 95) / percentile(small.http, 95) : Number.NaN;
  rows.push([
    call.name,
    (main.bytes / 1024).toFixed(1),
    percentile(main.http, 50).toFixed(1),
    percentile(main.bare, 50).toFixed(1),
    percentile(main.http, 95).toFixed(1),
    percentile(main.bare, 95).toFixed(1),
    `${ratio.toFixed(2)}x ${ratio <= 2 ? "ok" : "MISS"}`,
    small && full ? percentile(small.http, 50).toFixed(1) : "-",
    small && full ? percentile(small.http, 95).toFixed(1) : "-",
    Number.isNaN(flat) ? "-" : `${flat.toFixed(2)}x ${flat <= 1.5 ? "ok" : "MISS"}`,
  ]);
}
printTable(header, rows);

/**
 * What the answer itself costs, whatever the server does: the call's largest answer written as
 * JSON, compressed as the server sent it (brotli at quality 4, gzip at level 6, or not at all),
 * decompressed and parsed, in this process, timed
 * ANSWER_ROUNDS times. The bare SQL never pays it; the HTTP call always does (the server writes
 * and compresses, the client inflates and parses). (bare p50 + this p50) / bare p50 is the least
 * HTTP/bare the call can reach with this answer before the HTTP trip and its own work.
 */
const ANSWER_ROUNDS = 200;

function answerCost(body: unknown, encoding: string | undefined) {
  const times: number[] = [];
  let packedBytes = 0;
  for (let round = 0; round < ANSWER_ROUNDS; round += 1) {
    const started = performance.now();
    const text = JSON.stringify(body);
    const { pack, unpack } = ENCODINGS[isEncoding(encoding) ? encoding : "identity"];
    const packed = pack(text);
    JSON.parse(unpack(packed).toString("utf8"));
    times.push(performance.now() - started);
    packedBytes = packed.length;
  }
  return { times, packedBytes };
}

const answerHeader = [
  "call",
  "answer KB",
  "sent as",
  "sent KB",
  "answer p50",
  "bare p50",
  "least HTTP/bare p50",
];
const answerRows: string[][] = [];
for (const call of CALLS_MEASURED) {
  const main = full?.get(call.name) ?? demo?.get(call.name);
  if (!main?.sample) continue;
  const cost = answerCost(main.sample, main.encoding);
  const bareP50 = percentile(main.bare, 50);
  const answerP50 = percentile(cost.times, 50);
  answerRows.push([
    call.name,
    (main.bytes / 1024).toFixed(1),
    main.encoding ?? "identity",
    (cost.packedBytes / 1024).toFixed(1),
    answerP50.toFixed(2),
    bareP50.toFixed(2),
    `${((bareP50 + answerP50) / bareP50).toFixed(2)}x`,
  ]);
}
console.log(
  `\nWhat each answer costs on its own (no target): JSON, compressed as sent, decompressed and parsed in one process, ms`,
);
printTable(answerHeader, answerRows);

const floor = full?.get(FLOOR_CALL.name) ?? demo?.get(FLOOR_CALL.name);
if (floor) {
  const figure = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(2)} ms, p95 ${percentile(values, 95).toFixed(2)} ms`;
  console.log(
    `\nThe floor (no target): ${FLOOR_CALL.name} through HTTP ${figure(floor.http)}; bare ${figure(floor.bare)}`,
  );
}

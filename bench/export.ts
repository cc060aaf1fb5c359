/**
 * `npm run bench:export`: the study export over 100,000 submissions, in every format
 * registered (server/study-export/export-formats.ts; FHIR in both layouts; BENCH_FORMATS=csv,odm
 * for only some), through the same
 * path `clinro export --out FILE` takes. For each: the time against the floor (reading the same
 * rows, the same columns, with one bare query through the same driver, nothing written), and
 * the process's peak memory (RSS and the JavaScript heap sampled every 10 ms, the RSS's growth
 * over the figure before the export, the heap after a collection). V8 collects lazily: a heap
 * that grows while the export runs but falls back after a collection is garbage, not rows held. Target: at most 3 times the floor, peak memory under 300 MB.
 *
 * The database: PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (a throw-away
 * database is created on that server and dropped at the end), else PGlite in memory (whose
 * pages live in this process's memory, so its RSS counts the database too). The demo seed, then
 * 2,000 participants at the two sites of MDD-301 and 100,000 submissions of HAM-D 17 and CGI-S
 * (half each), made by the survey engine as the app makes them (the full payload: the survey
 * copy, the answer records, the scores) from 100 answer sets, inserted with SQL in one statement
 * with the audit triggers off (the bench measures reading). Prints figures; asserts nothing.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { EXPORT_FORMATS } from "../core/contracts/study-export.ts";
import type { SurveyDefinition } from "../core/contracts/survey-definition.ts";
import { makeRecord } from "../core/survey-engine/answer-state.ts";
import { choiceEntry } from "../core/survey-engine/answer-values.ts";
import { buildSubmission } from "../core/survey-engine/submission.ts";
import { parseSurveyDefinition } from "../core/survey-engine/validate-definition.ts";
import { runCli } from "../server/cli/run-cli.ts";
import { executeRows, openDatabase, type Database } from "../server/db/client.ts";
import { instrumentDefinitions, instruments, users } from "../server/db/schema.ts";
import { EXPORT_WRITERS } from "../server/study-export/export-formats.ts";
import { seedDemo } from "../server/seed/demo.ts";
import { createThrowawayDatabase } from "../tests/support/throwaway-postgres.ts";

const SUBMISSIONS = 100_000;
const PARTICIPANTS = 2_000;
const ANSWER_SETS = 100;
const STUDY_ID = 101;
const SITES = [1011, 1012];
const MB = 1024 * 1024;
/** BENCH_FORMATS=csv,odm: only those formats. */
const ONLY_FORMATS = process.env.BENCH_FORMATS?.split(",").map((format) => format.trim());

const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
const throwaway = adminUrl ? await createThrowawayDatabase(adminUrl, "bench") : undefined;
const handle = await openDatabase(throwaway ? { kind: "postgres", url: throwaway.url } : { kind: "pglite" });
const workDir = await mkdtemp(path.join(tmpdir(), "clinro-bench-export-"));

try {
  console.log(`Database: ${throwaway ? "PostgreSQL (a throw-away database)" : "PGlite in memory"}`);
  await handle.migrate();
  await seedDemo(handle.db);
  const seeding = performance.now();
  const instrumentIds = await seedSubmissions(handle.db);
  console.log(
    `Seeded ${SUBMISSIONS.toLocaleString("en")} submissions of ${PARTICIPANTS.toLocaleString("en")} participants in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );

  const runs: { format: string; args: string[] }[] = EXPORT_FORMATS.flatMap((format) => {
    if (ONLY_FORMATS && !ONLY_FORMATS.includes(format)) return [];
    if (!EXPORT_WRITERS[format]) {
      console.log(`${format}: not available yet (no writer registered), skipped`);
      return [];
    }
    return format === "fhir"
      ? [
          { format: "fhir (bundle)", args: ["--format", "fhir", "--layout", "bundle"] },
          { format: "fhir (ndjson)", args: ["--format", "fhir", "--layout", "ndjson"] },
        ]
      : [{ format, args: ["--format", format] }];
  });
  // The exports first: the floor holds every row at once, and the memory it takes is not given back
  // to the system at once, which would hide what an export takes.
  const results: ({ format: string; size: number } & Extract<Measured, { ok: true }>)[] = [];
  for (const [index, run] of runs.entries()) {
    const out = path.join(workDir, `export-${index}`);
    const args = ["export", "--study", String(STUDY_ID), ...run.args, "--out", out];
    const measured = throwaway
      ? await exportInChildProcess(args, throwaway.url)
      : await exportInProcess(args);
    if (!measured.ok) {
      console.log(`${run.format}: failed: ${measured.output}`);
      continue;
    }
    results.push({ format: run.format, ...measured, size: (await stat(out)).size });
    await rm(out, { force: true });
  }

  // The command's own start (loading its modules, opening the database), timed on a study that
  // does not exist: the floor's query runs on a connection already open, so it is left out.
  const start = throwaway
    ? await exportInChildProcess(["export", "--study", "999999", "--format", "csv"], throwaway.url)
    : undefined;
  const startMs = start ? start.ms : 0;
  const floor = await timeFloor(handle.db, instrumentIds);
  console.log(
    `Floor (one bare query of the same rows and columns): ${floor.ms.toFixed(0)} ms for ${floor.rows.toLocaleString("en")} rows` +
      (start
        ? `; the command's start (modules, database) takes ${startMs.toFixed(0)} ms, left out of the ratios`
        : ""),
  );
  for (const { format, ms, size, peak, before, detail } of results) {
    console.log(
      `${format}: ${ms.toFixed(0)} ms, ${((ms - startMs) / floor.ms).toFixed(2)}x the floor (target 3x); ` +
        `${(size / MB).toFixed(1)} MB written; peak RSS ${(peak / MB).toFixed(0)} MB (target < 300), ` +
        (before > 0
          ? `${((peak - before) / MB).toFixed(0)} MB over the ${(before / MB).toFixed(0)} MB `
          : "") +
        detail,
    );
  }
} finally {
  await handle.close();
  await throwaway?.drop();
  await rm(workDir, { recursive: true, force: true });
}

function definitionOf(json: unknown): SurveyDefinition {
  const parsed = parseSurveyDefinition(json);
  if (!parsed.ok) throw new Error("a demo definition does not parse");
  return parsed.definition;
}

/** A payload as the app submits it, every select answered with a random choice. */
function payloadFor(
  definition: SurveyDefinition,
  instrumentId: number,
  user: { id: number; username: string },
) {
  const completion = new Date("2026-06-01T10:00:00.000Z");
  const records = definition.order.map((id) => {
    const question = definition.questions[id]!;
    if (question.type !== "select_one") return makeRecord(question, [], completion);
    const codes = question.choices_order ?? Object.keys(question.choices ?? {});
    const entry = choiceEntry(question, codes[Math.floor(Math.random() * codes.length)]!)!;
    return makeRecord(question, [entry], completion);
  });
  return buildSubmission({
    definition,
    records,
    user,
    startTime: new Date(completion.getTime() - 10 * 60 * 1000),
    completion,
    portalVersion: "3.75.1",
    instrumentId,
    browserInfo:
      "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    instanceId: "bench",
  });
}

/** HAM-D 17 and CGI-S of MDD-301: 2,000 participants, 100,000 submissions. Answers their ids. */
async function seedSubmissions(db: Database): Promise<number[]> {
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.username, "coordinator@demo.test"));
  const forms = await Promise.all(
    ["ham-d-17", "cgi-s"].map(async (slug) => {
      const [row] = await db
        .select({ id: instruments.id, definition: instrumentDefinitions.definition })
        .from(instruments)
        .innerJoin(instrumentDefinitions, eq(instrumentDefinitions.instrumentId, instruments.id))
        .where(and(eq(instruments.studyId, STUDY_ID), eq(instruments.slug, slug)));
      return { id: row!.id, definition: definitionOf(row!.definition) };
    }),
  );
  const answerSets = Array.from({ length: ANSWER_SETS }, (_, index) => {
    const form = forms[index % forms.length]!;
    const payload = payloadFor(form.definition, form.id, user!);
    return { index, instrumentId: form.id, payload, scores: payload.scores };
  });
  await db.transaction(async (tx) => {
    // The bench measures reading: the audit trail's copy of 100,000 payloads is not what it times.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into participants (study_id, site_id, fname, lname, subject_id)
      select ${STUDY_ID}, (array[${sql.raw(SITES.join(","))}])[1 + n % ${SITES.length}],
             'Bench', 'Person ' || n, 'BENCH-' || lpad(n::text, 5, '0')
      from generate_series(0, ${PARTICIPANTS - 1}) n`);
    await tx.execute(
      sql`create temp table bench_answers (k int primary key, instrument_id int, payload jsonb, scores jsonb) on commit drop`,
    );
    for (const set of answerSets) {
      await tx.execute(
        sql`insert into bench_answers values (${set.index}, ${set.instrumentId}, ${JSON.stringify(set.payload)}::jsonb, ${JSON.stringify(set.scores)}::jsonb)`,
      );
    }
    await tx.execute(sql`
      with people as (
        select id, (row_number() over (order by id) - 1)::int as n
        from participants where subject_id like 'BENCH-%'
      )
      insert into instrument_submissions
        (instrument_id, participant_id, client_instance_id, version_number, submitted_by, completed_at, payload, scores, created_at)
      select a.instrument_id, p.id, 'bench-' || g, 1, ${user!.id},
             timestamptz '2026-01-01T00:00:00Z' + g * interval '1 minute',
             a.payload, a.scores,
             timestamptz '2026-01-01T00:00:00Z' + g * interval '1 minute' + interval '5 seconds'
      from generate_series(0, ${SUBMISSIONS - 1}) g
      join people p on p.n = (g / 50) % ${PARTICIPANTS}
      join bench_answers a on a.k = g % ${ANSWER_SETS}`);
  });
  await db.execute(sql`analyze`);
  return forms.map((form) => form.id);
}

/** The same rows and columns the export reads, in one query, all at once: the least reading costs. */
type Measured =
  | { ok: true; ms: number; peak: number; before: number; detail: string }
  | { ok: false; output: string; ms: number };

/**
 * The export as a site runs it: `npm run clinro -- export ...` in a process of its own on the
 * PostgreSQL database, so that its memory is the command's alone (not this process's, which
 * made 100,000 payloads). Peak RSS: the kernel's high-water mark (VmHWM), read every 20 ms.
 */
async function exportInChildProcess(args: string[], databaseUrl: string): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "server/cli/main.ts", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let peak = 0;
  const sample = async () => {
    const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
    peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024);
  };
  const sampler = setInterval(() => void sample(), 20);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sampler);
  const ms = performance.now() - started;
  if (code !== 0) return { ok: false, output: output.trim(), ms };
  return {
    ok: true,
    ms,
    peak,
    before: 0,
    detail: "(the command in its own process; the time printed includes its start)",
  };
}

/** PGlite in memory lives in this process: the command runs here, and the RSS counts the database. */
async function exportInProcess(args: string[]): Promise<Measured> {
  const lines: string[] = [];
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const code = await runCli(
    args,
    { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    { database: handle },
  );
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (code !== 0) return { ok: false, output: lines.join(" "), ms };
  return { ok: true, ms, peak, before, detail: "before (this process, which holds the PGlite database too)" };
}

async function timeFloor(db: Database, instrumentIds: number[]) {
  const started = performance.now();
  const rows = await executeRows(
    db,
    sql`select s.id, s.instrument_id, s.version_number, s.participant_id, p.subject_id, p.site_id,
               s.submitted_by, s.completed_at, s.created_at, s.payload -> 'answers' as answers,
               s.payload ->> 'start_time' as start_time, s.payload ->> 'browser_info' as browser_info, s.scores
        from instrument_submissions s join participants p on p.id = s.participant_id
        where p.study_id = ${STUDY_ID} and s.instrument_id in (${sql.join(instrumentIds, sql`, `)})`,
  );
  return { ms: performance.now() - started, rows: rows.length };
}

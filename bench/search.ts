/**
 * `npm run bench:search`: participant search answer times through HTTP, with 100,000
 * participants in one study and site. Runs on the embedded PGlite database, and on PostgreSQL
 * too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set: a throw-away database is created
 * on that server and dropped at the end. Beside each search through HTTP, the bare SQL it runs
 * (the route's own query, participantSearchSelect's toSQL(), sent straight to the driver), and
 * the ratio of the two medians (target: 2 times or less). The client is node:http on a kept-alive
 * connection, asking for gzip as a browser does. To say where the rest goes: the same calls with
 * their answers not compressed, through Node's fetch, and without the socket (Fastify's inject),
 * and the session query every other authenticated call runs, bare (the search holds that check in
 * its own query, and asks it apart only when it finds nothing: server/auth/authenticate.ts). Each
 * term is timed every way, in an order that turns from one term to the next. Prints figures;
 * asserts nothing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import http from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { participantSearchResponse } from "../core/contracts/participant.ts";
import { buildApp } from "../server/app.ts";
import { sessionRowSelect } from "../server/auth/authenticate.ts";
import { hashPassword } from "../server/auth/passwords.ts";
import { createTokenSigner } from "../server/auth/tokens.ts";
import { openDatabase, type DatabaseOptions } from "../server/db/client.ts";
import { sitePermissions, sites, studies, studyPermissions, users } from "../server/db/schema.ts";
import { FIRST_NAMES_F, FIRST_NAMES_M, FIRST_NAMES_O } from "../server/seed/demo-people.ts";
import { participantSearchSelect, searchPatterns } from "../server/routes/participants/search.ts";
import { createThrowawayDatabase } from "../tests/support/throwaway-postgres.ts";

const PARTICIPANTS = 100_000;
const SEARCHES = 200;
const WARM_UP_SEARCHES = 20;
const STUDY_ID = 1;
const SITE_ID = 11;
const USERNAME = "bench@bench.test";
const PASSWORD = "Bench&Mark42";

// The demo seed's first names, and two more so that the bench's people are not all demo ones.
const FIRST_NAMES = [...FIRST_NAMES_F, ...FIRST_NAMES_M, ...FIRST_NAMES_O, "Iris", "Felix"];
// 40 x 25 syllables: 1,000 last names, about 100 participants each.
const LAST_NAME_STARTS = [
  "Ander",
  "Bak",
  "Carv",
  "Dub",
  "Erik",
  "Fern",
  "Garc",
  "Hadd",
  "Ivan",
  "John",
  "Kowal",
  "Lind",
  "Mart",
  "Nakam",
  "Ocon",
  "Pat",
  "Quint",
  "Ross",
  "Schm",
  "Thom",
  "Usm",
  "Vand",
  "Will",
  "Xav",
  "Yilm",
  "Zhan",
  "Okaf",
  "Mor",
  "Nov",
  "Rey",
  "Sat",
  "Brenn",
  "Castel",
  "Dalg",
  "Esp",
  "Fitz",
  "Gall",
  "Holm",
  "Ibar",
  "Jank",
];
const LAST_NAME_ENDS = [
  "son",
  "shi",
  "alho",
  "ois",
  "sen",
  "andez",
  "ia",
  "ad",
  "ova",
  "ston",
  "ski",
  "qvist",
  "inez",
  "ura",
  "nor",
  "el",
  "ero",
  "i",
  "idt",
  "pson",
  "ani",
  "erberg",
  "iams",
  "ier",
  "az",
];

function sqlTextArray(values: string[]) {
  return sql.raw(`ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`);
}

/** Search texts a site's staff would type, by kind, cycling deterministically. */
function searchTerms(): { kind: string; text: string }[] {
  const kinds: ((index: number) => { kind: string; text: string })[] = [
    (i) => {
      const name = `${LAST_NAME_STARTS[i % 40]}${LAST_NAME_ENDS[(i * 7) % 25]}`;
      return { kind: "whole last name", text: name };
    },
    (i) => ({
      kind: "3-4 letters of a last name",
      text: LAST_NAME_STARTS[(i * 3) % 40]!.slice(0, 3 + (i % 2)).toLowerCase(),
    }),
    (i) => ({ kind: "whole first name", text: FIRST_NAMES[(i * 11) % FIRST_NAMES.length]! }),
    (i) => ({
      kind: "whole subject id",
      text: `BEN-${String(1 + ((i * 4_999) % PARTICIPANTS)).padStart(6, "0")}`,
    }),
    (i) => ({ kind: "4 digits of a subject id", text: String(1_000 + ((i * 379) % 9_000)) }),
    (i) => ({
      kind: "first and last name",
      text: `${FIRST_NAMES[(i * 13) % FIRST_NAMES.length]!.toLowerCase()} ${LAST_NAME_STARTS[(i * 5) % 40]!.toLowerCase()}`,
    }),
    (i) => ({ kind: "no match", text: `zq${String.fromCharCode(97 + (i % 26))}xv` }),
    (i) => ({ kind: "2 letters", text: ["an", "er", "ia", "so", "ki", "el"][i % 6]! }),
  ];
  return Array.from({ length: SEARCHES }, (_, index) =>
    kinds[index % kinds.length]!(Math.floor(index / kinds.length)),
  );
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function median(times: number[]) {
  return percentile(
    [...times].sort((a, b) => a - b),
    50,
  );
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms`;
}

async function benchOn(label: string, options: DatabaseOptions) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-bench-search-"));
  const database = await openDatabase(options);
  try {
    await database.migrate();
    const db = database.db;
    await db.insert(studies).values({ id: STUDY_ID, name: "BENCH-100k Search Study" });
    await db.insert(sites).values({ id: SITE_ID, studyId: STUDY_ID, label: "Bench Site", treeLevel: 4 });
    const [user] = await db
      .insert(users)
      .values({ username: USERNAME, passwordHash: await hashPassword(PASSWORD), name: "Bench" })
      .returning({ id: users.id });
    await db
      .insert(studyPermissions)
      .values({ userId: user!.id, studyId: STUDY_ID, role: "16", scope: ["ca", "cp"] });
    await db.insert(sitePermissions).values({ userId: user!.id, siteId: SITE_ID });

    const seedStarted = performance.now();
    await db.execute(sql`
      insert into participants (study_id, site_id, fname, lname, gender, date_of_birth, subject_id, last_updated)
      select ${STUDY_ID}, ${SITE_ID},
        (${sqlTextArray(FIRST_NAMES)})[1 + (i * 7 + i / 13) % ${FIRST_NAMES.length}],
        (${sqlTextArray(LAST_NAME_STARTS)})[1 + (i * 31) % 40] || (${sqlTextArray(LAST_NAME_ENDS)})[1 + (i / 40 * 17) % 25],
        (array['m', 'f', 'o', null])[1 + i % 4],
        date '1940-01-01' + (i * 9973) % 22000,
        case when i % 8 = 0 then '' else 'BEN-' || lpad(i::text, 6, '0') end,
        now()
      from generate_series(1, ${PARTICIPANTS}) as i`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // What the server's maintenance (PGlite) or autovacuum (PostgreSQL) does after a bulk load.
    const analyzeStarted = performance.now();
    await database.startMaintenance();
    if (database.kind === "postgres") await db.execute(sql`analyze participants`);
    const analyzeSeconds = (performance.now() - analyzeStarted) / 1000;

    const app = await buildApp({
      db,
      tokens: createTokenSigner(new TextEncoder().encode("bench-search-secret-".repeat(3)), 3600),
      loginRateLimit: { maxFailures: 1_000, windowSeconds: 60 },
      dataDir,
    });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const login = await fetch(`${address}/control/clinro/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };

      const searchPath = (text: string) =>
        `/control/studies/${STUDY_ID}/sites/${SITE_ID}/clinro_search?search_value=${encodeURIComponent(text)}`;
      /**
       * One search as a browser makes it: a kept-alive connection, the answer gzipped, decoded and
       * parsed. node:http, because Node's fetch (undici) decodes gzip through a chain of streams
       * that costs 2-3 ms a call on this machine, more than the route's own work: that would
       * measure the client. Its figure is printed too.
       */
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = (text: string, encoding: "gzip" | "identity") =>
        new Promise<{ status: number; body: unknown; encoded: boolean }>((resolve, reject) => {
          const request = http.get(
            `${address}${searchPath(text)}`,
            { agent, headers: { authorization: `Bearer ${token}`, "accept-encoding": encoding } },
            (answer) => {
              const chunks: Buffer[] = [];
              answer.on("data", (chunk: Buffer) => chunks.push(chunk));
              answer.on("error", reject);
              answer.on("end", () => {
                const encoded = answer.headers["content-encoding"] === "gzip";
                const bytes = encoded ? gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
                resolve({
                  status: answer.statusCode ?? 0,
                  body: JSON.parse(bytes.toString("utf8")),
                  encoded,
                });
              });
            },
          );
          request.on("error", reject);
        });

      const timeSearch = async (text: string) => {
        const started = performance.now();
        const answer = await get(text, "gzip");
        const elapsed = performance.now() - started;
        if (answer.status !== 200) throw new Error(`search ${text} answered ${answer.status}`);
        return { elapsed, rows: participantSearchResponse.parse(answer.body).response.length };
      };

      /** The same call through Node's fetch: what its gzip decoding adds on the client. */
      const timeFetch = async (text: string) => {
        const started = performance.now();
        const answer = await fetch(`${address}${searchPath(text)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await answer.json();
        return performance.now() - started;
      };

      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
        ver: number;
        jti: string;
      };
      /** The route's query, bare: its SQL text and parameters straight to the driver. */
      const client = (db as unknown as { $client: RawClient }).$client;
      const timeBareSql = async (text: string) => {
        const session = { userId: user!.id, tokenVersion: claims.ver, jti: claims.jti };
        const query = participantSearchSelect(db, session, STUDY_ID, SITE_ID, searchPatterns(text)).toSQL();
        const started = performance.now();
        const result =
          database.kind === "pglite"
            ? ((await client.query(query.sql, query.params)) as { rows: unknown[] }).rows
            : ((await client.unsafe(query.sql, query.params)) as unknown[]);
        return { elapsed: performance.now() - started, rows: result.length };
      };

      /** The same call, its answer not compressed: what gzip costs both ends on a fast network. */
      const timeUncompressed = async (text: string) => {
        const started = performance.now();
        const answer = await get(text, "identity");
        if (answer.encoded) throw new Error("identity was asked for, and not sent");
        return performance.now() - started;
      };

      /**
       * The query every other call runs: the session's user and the token's revocation. The
       * search holds this check in its own query, and runs this one only when it finds nothing.
       */
      const timeBareSessionSql = async () => {
        const query = sessionRowSelect(db, user!.id, claims.jti).toSQL();
        const started = performance.now();
        if (database.kind === "pglite") await client.query(query.sql, query.params);
        else await client.unsafe(query.sql, query.params);
        return performance.now() - started;
      };

      /** The same call without the socket (Fastify's inject): the rest is the route's own work. */
      const timeInjected = async (text: string) => {
        const started = performance.now();
        const answer = await app.inject({
          url: searchPath(text),
          headers: { authorization: `Bearer ${token}` },
        });
        answer.json();
        return performance.now() - started;
      };

      const terms = searchTerms();
      for (const term of terms.slice(0, WARM_UP_SEARCHES)) {
        await timeSearch(term.text);
        await timeInjected(term.text);
        await timeUncompressed(term.text);
        await timeFetch(term.text);
        await timeBareSql(term.text);
        await timeBareSessionSql();
      }
      const byKind = new Map<string, { times: number[]; bare: number[]; rows: number[] }>();
      const all: number[] = [];
      const allBare: number[] = [];
      const allInjected: number[] = [];
      const allUncompressed: number[] = [];
      const allFetch: number[] = [];
      const allSessionSql: number[] = [];
      for (const [index, term] of terms.entries()) {
        // The first run of a term pays for what the database has not read yet; whichever way ran
        // first would look slower. The order turns by one at every term, so each way runs first,
        // second... equally often.
        let timed: { elapsed: number; rows: number } | undefined;
        let bare: { elapsed: number; rows: number } | undefined;
        const ways = [
          async () => (timed = await timeSearch(term.text)),
          async () => allInjected.push(await timeInjected(term.text)),
          async () => allUncompressed.push(await timeUncompressed(term.text)),
          async () => allFetch.push(await timeFetch(term.text)),
          async () => allSessionSql.push(await timeBareSessionSql()),
          async () => (bare = await timeBareSql(term.text)),
        ];
        for (let step = 0; step < ways.length; step++) await ways[(index + step) % ways.length]!();
        if (!timed || !bare) throw new Error(`"${term.text}" was not timed every way`);
        const { elapsed, rows } = timed;
        if (bare.rows !== rows) throw new Error(`"${term.text}": ${rows} rows by HTTP, ${bare.rows} bare`);
        all.push(elapsed);
        allBare.push(bare.elapsed);
        const entry = byKind.get(term.kind) ?? { times: [], bare: [], rows: [] };
        entry.times.push(elapsed);
        entry.bare.push(bare.elapsed);
        entry.rows.push(rows);
        byKind.set(term.kind, entry);
      }

      /** The indexes the planner picks for a search of one word, as the route's query makes it. */
      const planIndexes = async (word: string) => {
        const pattern = `%${word}%`;
        const plan = await db.execute(sql`
          explain select id from participants
          where study_id = ${STUDY_ID} and site_id = ${SITE_ID}
            and (lname ilike ${pattern} or fname ilike ${pattern} or subject_id ilike ${pattern})
          order by lower(lname), lower(fname), id limit 200`);
        const rows = (Array.isArray(plan) ? plan : (plan as { rows: unknown[] }).rows) as Record<
          string,
          string
        >[];
        const text = rows.map((row) => Object.values(row)[0] ?? "").join("\n");
        const indexes = [...new Set([...text.matchAll(/Index Scan on (\w+)/g)].map((match) => match[1]))];
        return indexes.length > 0 ? indexes.join(", ") : "no index (reads the site's participants)";
      };
      const planFigures = [
        `"brennson": ${await planIndexes("brennson")}`,
        `"BEN-012345": ${await planIndexes("BEN-012345")}`,
        `"an": ${await planIndexes("an")}`,
      ];

      console.log(
        `\n${label}: ${PARTICIPANTS.toLocaleString("en")} participants in one site, inserted in ${seedSeconds.toFixed(1)} s, analysed in ${analyzeSeconds.toFixed(1)} s`,
      );
      console.log(`  all ${SEARCHES} searches through HTTP      ${summary(all)}`);
      console.log(`  the same, answers not compressed     ${summary(allUncompressed)}`);
      console.log(`  the same, through Node's fetch       ${summary(allFetch)}`);
      console.log(`  the same, no socket (app.inject)     ${summary(allInjected)}`);
      console.log(`  the same searches, bare SQL          ${summary(allBare)}`);
      console.log(`  the session query, bare SQL          ${summary(allSessionSql)}`);
      console.log(
        `  HTTP / bare SQL, medians             ${(median(all) / median(allBare)).toFixed(2)}x (target: 2x or less)`,
      );
      console.log("  by kind: through HTTP | bare SQL");
      for (const [kind, entry] of byKind) {
        const meanRows = entry.rows.reduce((sum, rows) => sum + rows, 0) / entry.rows.length;
        console.log(
          `  ${kind.padEnd(32)} ${summary(entry.times)} | ${summary(entry.bare)}  (n=${entry.times.length}, ${meanRows.toFixed(0)} rows on average)`,
        );
      }
      console.log("  plans:");
      for (const figure of planFigures) console.log(`    ${figure}`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The drivers' own query calls: PGlite's query, postgres.js's unsafe. */
type RawClient = {
  query: (text: string, params: unknown[]) => Promise<unknown>;
  unsafe: (text: string, params: unknown[]) => Promise<unknown>;
};

console.log(
  `load average at the start: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")}`,
);
await benchOn("PGlite (in memory)", { kind: "pglite" });

// The bench is a script run by hand: it reads its own settings, as the tests do.
const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
if (postgresUrl) {
  const database = await createThrowawayDatabase(postgresUrl, "bench_search");
  try {
    await benchOn("PostgreSQL", { kind: "postgres", url: database.url, maxConnections: 4 });
  } finally {
    await database.drop();
  }
} else {
  console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to run it)");
}
console.log(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")}`,
);

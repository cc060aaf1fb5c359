/**
 * `npm test`: every check of the project, stage by stage, and a table of how long each took and
 * how many tests it ran, so that anyone sees where the time goes.
 *
 *   node --import tsx scripts/test-stages.ts          run every stage, stop after a failed step
 *   node --import tsx scripts/test-stages.ts api e2e  only the stages whose names hold a word given
 *   node --import tsx scripts/test-stages.ts report   print the table of CLINRO_STAGE_TIMES
 *
 * Stages of one step run side by side: each of lint and type-check keeps one core busy, and the
 * machines this runs on have two. A side-by-side stage's output is printed whole when it ends,
 * so that two stages never interleave their lines.
 *
 * With CLINRO_STAGE_TIMES set (a file), each stage's row is appended there instead of a table
 * printed at the end: `.ci/run` adds the install and the Node 24 pass and prints one table.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type Stage = {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Where the stage's test runner writes its JSON report, to count the tests it ran. */
  counts?: "vitest" | "playwright";
};

type Row = { name: string; seconds: number; outcome: "passed" | "failed" | "skipped"; tests: string };

/**
 * The app's version, which the build writes into the app (vite.config.ts reads it from npm's
 * npm_package_version): npm sets it for `npm test`, and this sets it for a run started directly.
 */
const packageVersion: string = JSON.parse(readFileSync("package.json", "utf8")).version;

const reportDir = mkdtempSync(path.join(tmpdir(), "clinro-stages-"));
const reportOf = (stage: Stage) => path.join(reportDir, `${stage.name.replace(/\W+/g, "-")}.json`);

const vitest = (name: string, args: string[], env?: Record<string, string>): Stage => ({
  name,
  command: ["node_modules/.bin/vitest", "run", ...args],
  env,
  counts: "vitest",
});

/** The test names of the PostgreSQL variants: the harness titles them "on PostgreSQL". */
const ON_POSTGRESQL = "on PostgreSQL";

const postgresAvailable = Boolean(process.env.TEST_DATABASE_URL);

const allSteps: Stage[][] = [
  [
    {
      name: "lint",
      // The cache (by content, not by file time) lets a second run on a machine re-lint only what changed.
      command: [
        "node_modules/.bin/eslint",
        ".",
        "--max-warnings",
        "0",
        "--cache",
        "--cache-strategy",
        "content",
        "--cache-location",
        "node_modules/.cache/eslint/",
      ],
    },
    { name: "type-check", command: ["node_modules/.bin/tsc", "-b"] },
  ],
  [
    {
      name: "format",
      command: ["node_modules/.bin/prettier", "--check", ".", "--cache", "--log-level", "warn"],
    },
    { name: "translations", command: ["node", "--import", "tsx", "scripts/check-i18n.ts"] },
  ],
  [vitest("unit", ["--project", "unit", "--project", "components"])],
  [
    // Everything of the API project but the PostgreSQL variants: the PGlite variants and the
    // server's own tests, which need no database. Without a PostgreSQL, the whole project: its
    // PostgreSQL variants then report themselves skipped, with the reason in their titles.
    postgresAvailable
      ? vitest("API on PGlite", ["--project", "api", "--testNamePattern", `^(?!.*${ON_POSTGRESQL})`], {
          CLINRO_TEST_DATABASES: "pglite",
        })
      : vitest("API on PGlite", ["--project", "api"], { CLINRO_TEST_DATABASES: "pglite" }),
  ],
  postgresAvailable
    ? [
        vitest("API on PostgreSQL", ["--project", "api", "--testNamePattern", ON_POSTGRESQL], {
          CLINRO_TEST_DATABASES: "postgres",
        }),
      ]
    : [],
  [
    { name: "build", command: ["node_modules/.bin/vite", "build", "--logLevel", "warn"] },
    { name: "gallery build", command: ["node_modules/.bin/ladle", "build"] },
  ],
  [
    {
      name: "end-to-end (Chromium)",
      command: ["node_modules/.bin/playwright", "test"],
      counts: "playwright",
    },
  ],
  [
    {
      name: "engine journeys (WebKit, Firefox)",
      command: ["node_modules/.bin/vitest", "run", "--config", "vitest.engines.config.ts"],
      counts: "vitest",
    },
  ],
];
const steps = allSteps.filter((step) => step.length > 0);

function commandOf(stage: Stage): string[] {
  const report = reportOf(stage);
  if (stage.counts === "vitest") {
    return [...stage.command, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
  }
  if (stage.counts === "playwright") return [...stage.command, "--reporter=list,json"];
  return stage.command;
}

function countTests(stage: Stage): string {
  if (!stage.counts) return "";
  try {
    const report = JSON.parse(readFileSync(reportOf(stage), "utf8"));
    if (stage.counts === "vitest") {
      const skipped = report.numPendingTests + report.numTodoTests;
      return (
        `${report.numPassedTests} passed, ${report.numFailedTests} failed` +
        (skipped ? `, ${skipped} not run in this stage` : "")
      );
    }
    const stats = report.stats;
    return `${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky, ${stats.skipped} skipped`;
  } catch {
    return "no report";
  }
}

function runStage(stage: Stage, buffered: boolean): Promise<Row> {
  const started = performance.now();
  const [command, ...args] = commandOf(stage);
  return new Promise((resolve) => {
    const child = spawn(command!, args, {
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: {
        npm_package_version: packageVersion,
        ...process.env,
        ...stage.env,
        ...(stage.counts === "playwright" ? { PLAYWRIGHT_JSON_OUTPUT_NAME: reportOf(stage) } : {}),
      },
    });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    const finish = (code: number | null) => {
      const seconds = (performance.now() - started) / 1000;
      if (buffered) {
        console.log(`\n── ${stage.name} ──`);
        process.stdout.write(Buffer.concat(output));
      }
      const outcome = code === 0 ? "passed" : "failed";
      console.log(`── ${stage.name}: ${outcome} in ${formatSeconds(seconds)}`);
      resolve({ name: stage.name, seconds, outcome, tests: countTests(stage) });
    };
    child.on("error", (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on("close", finish);
  });
}

const formatSeconds = (seconds: number) =>
  seconds >= 60
    ? `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, "0")} s`
    : `${seconds.toFixed(1)} s`;

function printTable(rows: Row[]) {
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  const lines = [
    ["Stage", "Time", "Outcome", "Tests"],
    ...rows.map((row) => [row.name, formatSeconds(row.seconds), row.outcome, row.tests]),
  ];
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  console.log(`\n${format(lines[0]!)}`);
  console.log(`| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`);
  for (const line of lines.slice(1)) console.log(format(line));
  console.log(
    `Stage times add up to ${formatSeconds(total)} (side-by-side stages overlap in the wall clock).`,
  );
}

const timesFile = process.env.CLINRO_STAGE_TIMES;

function readRows(file: string): Row[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name, seconds, outcome, tests] = line.split("\t");
      return {
        name: name!,
        seconds: Number(seconds),
        outcome: outcome as Row["outcome"],
        tests: tests ?? "",
      };
    });
}

async function runAll(only: string[]) {
  const rows: Row[] = [];
  let failed = false;
  const chosen = (stage: Stage) =>
    only.length === 0 || only.some((word) => stage.name.toLowerCase().includes(word.toLowerCase()));
  for (const step of steps.map((stages) => stages.filter(chosen)).filter((stages) => stages.length > 0)) {
    if (failed) {
      rows.push(
        ...step.map((stage) => ({ name: stage.name, seconds: 0, outcome: "skipped" as const, tests: "" })),
      );
      continue;
    }
    const started = performance.now();
    const results = await Promise.all(step.map((stage) => runStage(stage, step.length > 1)));
    if (step.length > 1) {
      console.log(
        `── ${step.map((stage) => stage.name).join(" and ")} side by side: ${formatSeconds((performance.now() - started) / 1000)}`,
      );
    }
    rows.push(...results);
    failed = results.some((row) => row.outcome === "failed");
  }
  if (!postgresAvailable && only.length === 0) {
    console.log("\nAPI on PostgreSQL: skipped, TEST_DATABASE_URL is not set.");
  }
  if (timesFile) {
    for (const row of rows)
      appendFileSync(timesFile, `${row.name}\t${row.seconds}\t${row.outcome}\t${row.tests}\n`);
  } else {
    printTable(rows);
  }
  rmSync(reportDir, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[2] === "report") {
  if (!timesFile) throw new Error("CLINRO_STAGE_TIMES names no file");
  printTable(readRows(timesFile));
} else {
  await runAll(process.argv.slice(2));
}

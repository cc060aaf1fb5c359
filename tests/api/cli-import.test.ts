import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definitionResponse } from "../../core/contracts/instrument-schemas.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { openDatabase, type DatabaseOptions } from "../../server/db/client.ts";
import { instrumentDefinitions, instruments, sites, studies } from "../../server/db/schema.ts";
import { databaseTargets, describeOnEachDatabase } from "../support/api-harness.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const seedDirectory = path.join(root, "server/seed/instruments");

/** A definition with two problems: an order entry that is no question, and choices missing. */
const BAD_DEFINITION = {
  id: "broken",
  type: "CLINRO",
  order: ["mood", "ghost"],
  questions: { mood: { id: "mood", type: "select_one", label: "Mood" } },
};

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) },
    out,
    err,
  };
}

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-cli-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A copy of a demo definition under another file name (the default slug). */
async function definitionFile(fileName: string, from = "cgi-s.json", change: Record<string, unknown> = {}) {
  const json = {
    ...(JSON.parse(await readFile(path.join(seedDirectory, from), "utf8")) as object),
    ...change,
  };
  const target = path.join(workDir, fileName);
  if (fileName.endsWith(".zip")) {
    const inner = `${path.basename(fileName, ".zip")}.json`;
    await writeFile(target, zipSync({ [inner]: strToU8(JSON.stringify(json)) }));
  } else {
    await writeFile(target, JSON.stringify(json));
  }
  return target;
}

describeOnEachDatabase("clinro instrument import", (api) => {
  const run = async (args: string[]) => {
    const captured = capture();
    const code = await runCli(args, captured.output, { database: api.handle });
    return { code, out: captured.out.join("\n"), err: captured.err.join("\n") };
  };
  const instrumentsOf = (studyId: number, slug: string) =>
    api.db
      .select()
      .from(instruments)
      .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
  const versionsOf = async (instrumentId: number) =>
    (
      await api.db
        .select({ version: instrumentDefinitions.versionNumber, servedAs: instrumentDefinitions.servedAs })
        .from(instrumentDefinitions)
        .where(eq(instrumentDefinitions.instrumentId, instrumentId))
        .orderBy(instrumentDefinitions.versionNumber)
    ).map((row) => `${row.version}:${row.servedAs}`);
  const countRows = async () => {
    const [counted] = await api.db
      .select({
        instruments: sql<number>`(select count(*)::int from instruments)`,
        definitions: sql<number>`(select count(*)::int from instrument_definitions)`,
      })
      .from(studies)
      .limit(1);
    return counted!;
  };

  it("imports a good file as a new clinician instrument with definition version 1, and serves it", async () => {
    const file = await definitionFile("global-impression.json");
    const result = await run([
      "instrument",
      "import",
      file,
      "--study",
      "103",
      "--name",
      "Global Impression",
      "--permissions",
      "16,13",
    ]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Created instrument \d+ "Global Impression" \(slug global-impression\) of study 103/,
    );
    expect(result.out).toContain("definition version 1, served as json");
    const [created] = await instrumentsOf(103, "global-impression");
    expect(created).toMatchObject({
      displayName: "Global Impression",
      instrumentType: "CLINRO",
      permissions: ["16", "13"],
    });
    expect(await versionsOf(created!.id)).toEqual(["1:json"]);
    const token = await api.signIn("staff3@demo.test");
    const response = await api.request(
      "GET",
      `/control/admin/studies/103/instruments/${created!.id}/global-impression`,
      { token },
    );
    expect(response.statusCode).toBe(200);
    expect(definitionResponse.parse(response.json())).toMatchObject({ id: "cgi-s", version: 1 });
  });

  it("refuses a bad file with exit code 1, printing each problem by question and field, storing nothing", async () => {
    const file = path.join(workDir, "broken.json");
    await writeFile(file, JSON.stringify(BAD_DEFINITION));
    const before = await countRows();
    const result = await run(["instrument", "import", file, "--study", "101"]);
    expect(result.code).toBe(1);
    expect(result.err).toContain("nothing was imported");
    expect(result.err).toContain('Field "order[1]": "ghost" is not a question of this survey');
    expect(result.err).toContain('Question "mood", field "choices": a select_one question needs choices');
    expect(await countRows()).toEqual(before);
    expect(await instrumentsOf(101, "broken")).toEqual([]);
  });

  it("imports a zip holding one JSON file, served as a zip", async () => {
    const file = await definitionFile("zipped-scale.zip", "ham-d-17.json");
    const result = await run(["instrument", "import", file, "--study", "101"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("served as zip");
    const [created] = await instrumentsOf(101, "zipped-scale");
    // No --name: the definition's title.
    expect(created!.displayName).toBe("Hamilton Depression Rating Scale (17 items)");
    expect(created!.permissions).toEqual(["16", "11", "12", "13"]);
    const token = await api.signIn("coordinator@demo.test");
    const response = await api.request(
      "GET",
      `/control/studies/101/instruments/${created!.id}/zipped-scale`,
      {
        token,
      },
    );
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(Object.keys(unzipSync(new Uint8Array(response.rawPayload)))).toEqual(["zipped-scale.json"]);
  });

  it("refuses a slug the study already has unless --new-version-of names it; then adds version 2", async () => {
    const first = await definitionFile("twice.json");
    const second = await definitionFile("twice-again.json", "cgi-s.json", { title: "Second edition" });
    expect((await run(["instrument", "import", first, "--study", "101"])).code).toBe(0);
    const before = await countRows();
    const refused = await run(["instrument", "import", second, "--study", "101", "--slug", "twice"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^Study 101 already has an instrument with the slug "twice": instrument \d+ "Clinical Global Impression/,
    );
    expect(await countRows()).toEqual(before);
    const unchanged = await run(["instrument", "import", first, "--study", "101"]);
    expect(unchanged.code).toBe(0);
    expect(unchanged.out).toMatch(/^No changes: definition version 1 of instrument \d+/);
    expect(await countRows()).toEqual(before);
    const result = await run([
      "instrument",
      "import",
      second,
      "--study",
      "101",
      "--new-version-of",
      "twice",
      "--name",
      "New",
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Definition version 2 \(1 question\) changes from version 1:\n {2}title: "Clinical Global Impression.*" becomes "Second edition"\nAdded definition version 2 to instrument \d+ "Clinical Global Impression/,
    );
    expect(result.out).toContain("--name only apply to a new instrument");
    const rows = await instrumentsOf(101, "twice");
    expect(rows).toHaveLength(1);
    expect(await versionsOf(rows[0]!.id)).toEqual(["1:json", "2:json"]);
    const token = await api.signIn("coordinator@demo.test");
    const response = await api.request("GET", `/control/admin/studies/101/instruments/${rows[0]!.id}/twice`, {
      token,
    });
    expect(definitionResponse.parse(response.json())).toMatchObject({ version: 2, title: "Second edition" });
  });

  it("exit 1 for a study that does not exist, an announcement's slug, or an unreadable file", async () => {
    const file = await definitionFile("nowhere.json");
    const before = await countRows();
    const missingStudy = await run(["instrument", "import", file, "--study", "999"]);
    expect(missingStudy).toMatchObject({ code: 1, err: expect.stringContaining("Study 999 does not exist") });
    const announcement = await run([
      "instrument",
      "import",
      file,
      "--study",
      "101",
      "--slug",
      "visit-schedule-update",
    ]);
    expect(announcement).toMatchObject({ code: 1, err: expect.stringContaining("ANNOUNCEMENT") });
    const missingFile = await run([
      "instrument",
      "import",
      path.join(workDir, "absent.json"),
      "--study",
      "101",
    ]);
    expect(missingFile).toMatchObject({ code: 1, err: expect.stringContaining("Cannot read") });
    expect(await countRows()).toEqual(before);
  });

  it("exit 2 with the usage for a wrong command line", async () => {
    for (const args of [
      [],
      ["instrument", "import"],
      ["instrument", "import", "x.json"],
      ["instrument", "import", "x.json", "--study", "abc"],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.err).toContain("Usage:");
    }
  });
});

/**
 * The command as people run it: its own process, the database from the environment (DATA_DIR or
 * DATABASE_URL), migrated by the command itself.
 */
describe("npm run clinro, as a process", () => {
  const spawnIn = (command: string, args: string[], env: Record<string, string | undefined>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        command,
        args,
        {
          cwd: root,
          // Whatever started the tests (npm run, npx) is not what starts the command here.
          env: { ...process.env, npm_lifecycle_event: undefined, DATABASE_URL: "", DATA_DIR: "", ...env },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  const cli = (args: string[], env: Record<string, string>) =>
    spawnIn(process.execPath, ["--import", "tsx", "server/cli/main.ts", ...args], env);

  /** An empty database of the target, migrated, with one study; and the command's environment. */
  async function emptyDatabase(target: (typeof databaseTargets)[number]) {
    let options: DatabaseOptions;
    let env: Record<string, string>;
    let drop = async () => {};
    if (target.kind === "postgres") {
      const created = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
      drop = created.drop;
      options = { kind: "postgres", url: created.url };
      env = { DATABASE_URL: created.url };
    } else {
      const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-cli-data-"));
      drop = () => rm(dataDir, { recursive: true, force: true });
      options = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
      env = { DATA_DIR: dataDir };
    }
    const setup = await openDatabase(options);
    await setup.migrate();
    await setup.db.insert(studies).values({ id: 7, name: "CLI study" });
    await setup.db.insert(sites).values({ id: 71, studyId: 7, label: "Riverside", treeLevel: 1 });
    await setup.close();
    return { env, drop };
  }

  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `npx clinro study export writes the study file alone, which study apply takes back; under npm run's banner it refuses (${target.title})`,
      async () => {
        const { env, drop } = await emptyDatabase(target);
        try {
          const exported = await spawnIn("npx", ["clinro", "study", "export", "--study", "7"], env);
          expect(exported.stderr).toBe("");
          expect(exported.code).toBe(0);
          expect(exported.stdout).toMatch(
            /^# Study 7, exported by `npx clinro study export --study 7`\.\n.*\nformat: 1\nstudy:\n {2}id: 7\n {2}name: CLI study\n/,
          );
          const file = path.join(workDir, `study-7-${target.kind}.yaml`);
          await writeFile(file, exported.stdout);
          const applied = await spawnIn("npx", ["clinro", "study", "apply", file], env);
          expect(applied.stderr).toBe("");
          expect(applied.stdout).toMatch(/Study 7 already matches .*: no changes\n$/);

          const underNpm = await spawnIn(
            "npm",
            ["run", "clinro", "--", "study", "export", "--study", "7"],
            env,
          );
          expect(underNpm.code).toBe(2);
          // What npm wrote, and nothing of the study: no file that looks whole.
          expect(underNpm.stdout).not.toContain("study:");
          expect(underNpm.stderr).toContain("Run it as: npx clinro study export --study 7");
          const silent = await spawnIn(
            "npm",
            ["run", "--silent", "clinro", "--", "study", "export", "--study", "7"],
            env,
          );
          expect(silent.code).toBe(0);
          expect(silent.stdout).toBe(exported.stdout);
        } finally {
          await drop();
        }
      },
      180_000,
    );
  }

  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `migrates, imports and exits 0, or exits 1 for a bad file (${target.title})`,
      async () => {
        let options: DatabaseOptions;
        let env: Record<string, string>;
        let drop = async () => {};
        if (target.kind === "postgres") {
          const created = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
          drop = created.drop;
          options = { kind: "postgres", url: created.url };
          env = { DATABASE_URL: created.url };
        } else {
          const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-cli-data-"));
          drop = () => rm(dataDir, { recursive: true, force: true });
          options = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
          env = { DATA_DIR: dataDir };
        }
        try {
          const bad = path.join(workDir, "process-bad.json");
          await writeFile(bad, JSON.stringify(BAD_DEFINITION));
          const refused = await cli(["instrument", "import", bad, "--study", "7"], env);
          expect(refused.code).toBe(1);
          expect(refused.stderr).toContain('Question "mood", field "choices"');

          // An empty database: the command migrates it; a study is needed to import into.
          const setup = await openDatabase(options);
          await setup.migrate();
          await setup.db.insert(studies).values({ id: 7, name: "CLI study" });
          await setup.close();

          const good = await definitionFile("process-good.json");
          const imported = await cli(["instrument", "import", good, "--study", "7"], env);
          expect(imported.stderr).toBe("");
          expect(imported.code).toBe(0);
          expect(imported.stdout).toContain("(slug process-good) of study 7 with definition version 1");

          const check = await openDatabase(options);
          try {
            const rows = await check.db.select({ slug: instruments.slug }).from(instruments);
            expect(rows).toEqual([{ slug: "process-good" }]);
            if (target.kind === "pglite") {
              // While another process (this one here, the server in real life) has the embedded
              // database open, the command refuses instead of writing to a copy of it.
              const busy = await cli(["instrument", "import", good, "--study", "7", "--slug", "busy"], env);
              expect(busy.code).toBe(1);
              expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
              expect(await check.db.select({ slug: instruments.slug }).from(instruments)).toHaveLength(1);
            }
          } finally {
            await check.close();
          }
        } finally {
          await drop();
        }
      },
      90_000,
    );
  }
});

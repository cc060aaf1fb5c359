/**
 * `npm run bench:scale:audit`: `clinro audit verify` as an operator runs it (a child
 * process: node server/cli/main.ts audit verify) on the scale databases of bench/scale/build.ts:
 * clinro_scale_demo (150,000 audit rows) and clinro_scale (5,000,000). Prints the rows per second
 * and the peak memory (the kernel's high-water mark, VmHWM, read every 50 ms as bench/export.ts
 * does): at the moment the walk passed 1,000,000 rows (its share of the elapsed time, the rate
 * being even) and at the end, so that memory flat in the row count shows as the same figure.
 * SCALE_AUDIT_DATABASES=clinro_scale (a comma list) measures fewer.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { SCALE_DATABASES, databaseUrl } from "./build.ts";

const MiB = 2 ** 20;

async function verify(database: string) {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "server/cli/main.ts", "audit", "verify"], {
    env: { ...process.env, DATABASE_URL: databaseUrl(database) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const samples: { at: number; hwm: number }[] = [];
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    if (hwm > 0) samples.push({ at: performance.now() - started, hwm });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const code = await exited;
  const seconds = (performance.now() - started) / 1000;
  const rows = Number(/intact: (\d+) rows/.exec(output)?.[1] ?? 0);
  const peak = Math.max(...samples.map((sample) => sample.hwm));
  const at1M =
    rows >= 1_000_000
      ? Math.max(
          0,
          ...samples.filter((sample) => sample.at <= (seconds * 1000 * 1_000_000) / rows).map((s) => s.hwm),
        )
      : Number.NaN;
  return { database, code, output: output.trim(), rows, seconds, peak, at1M };
}

const wanted = (process.env.SCALE_AUDIT_DATABASES ?? `${SCALE_DATABASES.demo},${SCALE_DATABASES.full}`).split(
  ",",
);
for (const database of wanted) {
  const result = await verify(database);
  console.log(`${database}: ${result.output.split("\n")[0]} (exit ${result.code})`);
  console.log(
    `  ${result.rows} rows in ${result.seconds.toFixed(1)} s: ${Math.round(result.rows / result.seconds)} rows/s; ` +
      `peak memory ${(result.peak / MiB).toFixed(0)} MiB` +
      (Number.isNaN(result.at1M)
        ? ""
        : ` (${(result.at1M / MiB).toFixed(0)} MiB when 1,000,000 rows were walked)`) +
      ` (target: flat in the row count)`,
  );
}

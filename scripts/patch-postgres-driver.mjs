/**
 * Run after every `npm install` (postinstall): guards the postgres driver's one unguarded write.
 *
 * postgres.js 3.4.x (porsager/postgres issues #1066, #1154, #1208; pull requests #1168, #1209,
 * none released) buffers a small write and sends it from a setImmediate. When the database goes
 * away (an immediate shutdown, a killed backend) the connection's socket is set to null; a
 * transaction then sends its own ROLLBACK on that connection, the buffered write dereferences
 * the null socket from the timer, and the TypeError nobody can catch ends the server process.
 * The guard settles the connection's waiting queries with CONNECTION_CLOSED instead (the pool
 * reconnects on the next query), which the server answers as 503 (database-unavailable.ts).
 *
 * The script fails the install when the driver's text is neither the expected original nor
 * already guarded: a new driver version must be looked at, not silently left unguarded.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const ORIGINAL = `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`;

const GUARDED = `  function nextWrite(fn) {
    // clinro guard (scripts/patch-postgres-driver.mjs): the socket closed under a pending write.
    if (!socket) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options, socket))
      fn && fn(Errors.connection('CONNECTION_CLOSED', options, socket))
      return true
    }
    const x = socket.write(chunk, fn)`;

const require = createRequire(import.meta.url);
// The package exports no package.json: its CommonJS entry is cjs/src/index.js.
const driverRoot = path.resolve(path.dirname(require.resolve("postgres")), "../..");
// The ESM build (what the server imports) and the CommonJS one.
const files = ["src/connection.js", "cjs/src/connection.js"].map((file) => path.join(driverRoot, file));

for (const file of files) {
  const text = await readFile(file, "utf8");
  if (text.includes(GUARDED)) continue;
  if (!text.includes(ORIGINAL)) {
    throw new Error(
      `${file}: nextWrite is not the text scripts/patch-postgres-driver.mjs guards; check whether this postgres version still needs the guard`,
    );
  }
  await writeFile(file, text.replace(ORIGINAL, GUARDED));
  console.log(`Guarded the postgres driver's nextWrite in ${path.relative(process.cwd(), file)}`);
}

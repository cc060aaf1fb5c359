/**
 * `npm start`: the API server and the built app on one origin.
 */
import { existsSync } from "node:fs";
import { isDatabaseUnavailable } from "./db/database-unavailable.ts";
import { readEnv } from "./env.ts";
import { errorSummary } from "./http/error-summary.ts";
import { startServer } from "./start.ts";

const env = readEnv();
if (!existsSync(env.STATIC_DIR)) {
  console.warn(`No built app in ${env.STATIC_DIR}: run \`npm run build\` first. Serving the API only.`);
}
const { app, database } = await startServer(env);
// While PostgreSQL is down, the driver may reject a connection attempt that no caller waits for
// any more (the request it was for has had its 503): that says nothing the log and /healthz do
// not, and the server stays up to serve again when the database is back. Any other unhandled
// rejection is a defect: logged, and the process ends as Node would end it (a supervisor
// restarts it: docs/operations.md).
process.on("unhandledRejection", (reason) => {
  if (isDatabaseUnavailable(reason)) {
    app.log.warn(
      { failure: errorSummary(reason) },
      "Database unavailable (a connection attempt nobody awaited)",
    );
    return;
  }
  app.log.fatal({ failure: errorSummary(reason) }, "Unhandled rejection");
  process.exit(1);
});
await app.listen({ port: env.PORT, host: env.HOST });
console.log(
  `ClinRO portal on http://localhost:${env.PORT} (database: ${database.kind === "postgres" ? "PostgreSQL" : `PGlite in ${env.DATA_DIR}`})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

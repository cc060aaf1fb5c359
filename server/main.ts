/**
 * `npm start`: the API server and the built app on one origin.
 */
import { existsSync } from "node:fs";
import { readEnv } from "./env.ts";
import { startServer } from "./start.ts";

const env = readEnv();
if (!existsSync(env.STATIC_DIR)) {
  console.warn(`No built app in ${env.STATIC_DIR}: run \`npm run build\` first. Serving the API only.`);
}
const { app, database } = await startServer(env);
await app.listen({ port: env.PORT, host: env.HOST });
console.log(
  `ClinRO portal on http://localhost:${env.PORT} (database: ${database.kind === "postgres" ? "PostgreSQL" : `PGlite in ${env.DATA_DIR}`})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

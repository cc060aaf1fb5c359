/**
 * Opens the database, migrates, seeds on request, and builds the app: shared by `npm start`
 * and the tests, so both run the same start-up.
 */
import { loadSigningSecret, createTokenSigner } from "./auth/tokens.ts";
import { buildApp } from "./app.ts";
import { openDatabase, type DatabaseOptions } from "./db/client.ts";
import { isDatabaseEmpty, seedDemo } from "./db/seed/demo.ts";
import type { ServerEnv } from "./env.ts";
import path from "node:path";

export function databaseOptionsFrom(env: ServerEnv): DatabaseOptions {
  return env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "pglite", dataDir: path.join(env.DATA_DIR, "pglite") };
}

export async function startServer(env: ServerEnv, database = databaseOptionsFrom(env)) {
  const handle = await openDatabase(database);
  await handle.migrate();
  if (env.SEED === "demo" && (await isDatabaseEmpty(handle.db))) {
    await seedDemo(handle.db);
  }
  const secret = await loadSigningSecret(env.JWT_SECRET, env.DATA_DIR);
  const app = await buildApp(
    {
      db: handle.db,
      tokens: createTokenSigner(secret, env.TOKEN_TTL_S),
      loginRateLimit: { maxFailures: env.LOGIN_MAX_FAILURES, windowSeconds: env.LOGIN_WINDOW_S },
      dataDir: env.DATA_DIR,
      staticDir: env.STATIC_DIR,
    },
    { logLevel: env.LOG_LEVEL },
  );
  app.addHook("onClose", () => handle.close());
  return { app, database: handle };
}

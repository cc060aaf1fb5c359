/**
 * Opens the database, migrates, seeds on request, and builds the app: shared by `npm start`
 * and the tests, so both run the same start-up.
 */
import { setPasswordHashNice } from "./auth/password-threads.ts";
import { eq } from "drizzle-orm";
import { loadSigningSecret, createTokenSigner } from "./auth/tokens.ts";
import { buildApp } from "./app.ts";
import { recordAuditCheckpoint } from "./audit/audit-checkpoints.ts";
import { openDatabase } from "./db/client.ts";
import { grantServerRole, roleOfUrl } from "./db/database-roles.ts";
import { users } from "./db/schema.ts";
import {
  DEMO_ACCOUNTS,
  DEMO_PARTICIPANTS_PER_STUDY,
  DEMO_PASSWORD,
  DEMO_PENDING_ACCOUNT,
  DEMO_STUDIES,
  isDatabaseEmpty,
  seedDemo,
} from "./seed/demo.ts";
import { mailDemoVisitInvitations } from "./seed/demo-visits.ts";
import { sendActivationMail } from "./users/account-mail.ts";
import { databaseOptionsFrom, seedChoice, type ServerEnv } from "./env.ts";
import { videoSettingsFrom } from "./visits/video-settings.ts";
import { importFilesFromDisk } from "./files/file-store.ts";
import { errorSummary } from "./http/error-summary.ts";

/** What a server on an empty, unseeded database says: the one command that makes it usable. */
export const FIRST_ADMINISTRATOR_HINT =
  "No user yet. Create the first administrator with: npx clinro admin create --email E --name N";

export async function startServer(env: ServerEnv, database = databaseOptionsFrom(env)) {
  setPasswordHashNice(env.PASSWORD_HASH_NICE);
  // Two roles (MIGRATION_DATABASE_URL): the owner migrates, seeds and grants the server's role
  // its rights, then the server runs as that role (server/db/database-roles.ts).
  const migrationUrl = database.kind === "postgres" ? env.MIGRATION_DATABASE_URL : undefined;
  const owner = migrationUrl
    ? await openDatabase({ kind: "postgres", url: migrationUrl, maxConnections: 2 })
    : undefined;
  const handle = await openDatabase(database);
  const migrator = owner ?? handle;
  const seed = seedChoice(env);
  // Under the start-up lock: of servers starting together on one empty database, one seeds and
  // the others find it seeded (or, unseeded, all find it without users).
  const { seeded, withoutUsers } = await migrator
    .startUp(async () => {
      const empty = await isDatabaseEmpty(migrator.db);
      if (empty && seed === "demo") await seedDemo(migrator.db);
      if (owner && database.kind === "postgres") await grantServerRole(owner.db, roleOfUrl(database.url));
      return { seeded: empty && seed === "demo", withoutUsers: empty && seed === "none" };
    })
    .finally(() => owner?.close());
  // Files kept on this server's disk before they moved into the database (migration 0013).
  const diskImport = await importFilesFromDisk(handle.db, env.DATA_DIR);
  await handle.startMaintenance();
  // Each start checkpoints the audit chain's head: a tail cut since is found by audit verify.
  await recordAuditCheckpoint(handle.db, "server start");
  const secret = await loadSigningSecret(env.JWT_SECRET, env.DATA_DIR);
  const app = await buildApp(
    {
      db: handle.db,
      tokens: createTokenSigner(secret, env.TOKEN_TTL_S),
      loginRateLimit: {
        maxFailures: env.LOGIN_MAX_FAILURES,
        maxFailuresPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
        windowSeconds: env.LOGIN_WINDOW_S,
      },
      dataDir: env.DATA_DIR,
      staticDir: env.STATIC_DIR,
      behindTlsProxy: env.BEHIND_TLS_PROXY,
      video: videoSettingsFrom(env),
      signingSecret: secret,
      notifications: handle.notifications,
      ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
      mail: {
        smtpUrl: env.SMTP_URL,
        from: env.MAIL_FROM,
        publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
      },
    },
    { logLevel: env.LOG_LEVEL, trustProxy: env.TRUSTED_PROXIES ?? false },
  );
  if (seeded) {
    const created =
      `Seeded the demo site (SEED=demo): ${DEMO_STUDIES.length} studies (${DEMO_STUDIES.map((study) => study.name).join(", ")}) ` +
      `with ${DEMO_PARTICIPANTS_PER_STUDY} participants each, and ${DEMO_ACCOUNTS.length} accounts ` +
      `(${DEMO_ACCOUNTS.map((account) => account.username).join(", ")}) whose password is the published "${DEMO_PASSWORD}".`;
    // On a real PostgreSQL the demo is asked for explicitly: say loudly what it put there.
    if (env.DATABASE_URL)
      app.log.warn(`${created} This database is for trying the portal, never for real data.`);
    else app.log.info(created);
  }
  if (withoutUsers) app.log.warn(FIRST_ADMINISTRATOR_HINT);
  if (env.BEHIND_TLS_PROXY && !env.TRUSTED_PROXIES) {
    // Every client would reach the sign-in limit with the proxy's one address.
    app.log.warn(
      "BEHIND_TLS_PROXY is set but TRUSTED_PROXIES is not: clients' addresses are the proxy's. Set TRUSTED_PROXIES to the proxy's address (docs/operations.md).",
    );
  }
  if (diskImport.imported > 0) {
    app.log.info(`${diskImport.imported} uploaded files copied from ${env.DATA_DIR}/files into the database`);
  }
  if (diskImport.missing.length > 0) {
    app.log.warn(
      { files: diskImport.missing.slice(0, 20) },
      `${diskImport.missing.length} uploaded files have no content: not in the database, nor on this server's disk`,
    );
  }
  app.addHook("onClose", async () => {
    // Mail still being sent needs the database: close it last.
    await app.backgroundTasks.drain();
    await handle.close();
  });
  if (seeded) {
    // The demo's not-yet-activated account gets its activation mail, as a new user would.
    const [pending] = await handle.db
      .select({ id: users.id, username: users.username, name: users.name })
      .from(users)
      .where(eq(users.username, DEMO_PENDING_ACCOUNT.username));
    // A mail relay that is down must not keep the portal from starting.
    if (pending) {
      await sendActivationMail(app.accountMail, pending).catch((error: unknown) => {
        app.log.error(
          { failure: errorSummary(error) },
          `The activation mail of ${pending.username} was not sent`,
        );
      });
    }
    // The demo visits' participants get their join links, as a scheduled participant would.
    await mailDemoVisitInvitations(handle.db, app.accountMail).catch((error: unknown) => {
      app.log.error({ failure: errorSummary(error) }, "The demo visits' join links were not mailed");
    });
  }
  return { app, database: handle };
}

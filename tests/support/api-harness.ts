/**
 * Builds the real API server on a real, freshly migrated and demo-seeded database for one test
 * file, and tears it down afterwards. The database is a copy of the run's seeded template of
 * its engine (api-database-templates.ts) where there is one, else migrated and seeded here. Every API test runs once per database target: PGlite in
 * memory always, and PostgreSQL when TEST_DATABASE_URL is set (a throw-away database is created
 * on that server for the file and dropped at the end).
 *
 * Requests go through Fastify's `app.inject`, so no port is opened.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, inject } from "vitest";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { errorBody } from "../../core/contracts/errors.ts";
import { createThrowawayDatabase } from "./throwaway-postgres.ts";
import { buildApp, type BuildAppOptions } from "../../server/app.ts";
import type { LoginRateLimit } from "../../server/auth/login-rate-limit.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { createTokenSigner } from "../../server/auth/tokens.ts";
import { openDatabase, type Database, type DatabaseHandle } from "../../server/db/client.ts";
import { studyPermissions, sitePermissions, users } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, DEMO_STUDIES, seedDemo } from "../../server/seed/demo.ts";
import type { VideoSettings } from "../../server/visits/video-settings.ts";

/** The signing secret of every test app: tests sign their own tokens (expired, tampered) with it. */
export const TEST_JWT_SECRET = "api-tests-fixed-signing-secret-0123456789abcdef";
export const TEST_SECRET_BYTES = new TextEncoder().encode(TEST_JWT_SECRET);
export const TEST_TOKEN_TTL_S = 60 * 60;
export const DEFAULT_LOGIN_RATE_LIMIT: LoginRateLimit = { maxFailures: 5, windowSeconds: 900 };

export { DEMO_PASSWORD };

const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

export type DatabaseTarget = {
  kind: "pglite" | "postgres";
  /** The describe title: says clearly when and why a target is skipped. */
  title: string;
  available: boolean;
};

export const databaseTargets: DatabaseTarget[] = [
  { kind: "pglite", title: "on PGlite", available: true },
  {
    kind: "postgres",
    title: testDatabaseUrl ? "on PostgreSQL" : "on PostgreSQL (skipped: TEST_DATABASE_URL is not set)",
    available: testDatabaseUrl !== undefined,
  },
];

export type HarnessOptions = {
  loginRateLimit?: LoginRateLimit;
  /** Serve the built app from here (SPA fallback); unset serves the API alone. */
  staticDir?: string | (() => string);
  /** Virtual visits' video service (default: built in, no ICE servers). */
  video?: VideoSettings;
  /** Told it is behind a TLS-terminating proxy (HSTS on every answer). */
  behindTlsProxy?: boolean;
  /** buildApp's options: the log's level and destination, trustProxy. */
  appOptions?: BuildAppOptions;
  /** What the empty database is seeded with: the demo (the default), or nothing, as a site's own portal starts. */
  seed?: "demo" | "none";
};

type App = Awaited<ReturnType<typeof buildApp>>;

export type RequestOptions = {
  token?: string;
  /** A raw Authorization header value; wins over token. */
  authorization?: string;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
};

export type ApiHarness = {
  readonly kind: DatabaseTarget["kind"];
  readonly app: App;
  readonly handle: DatabaseHandle;
  readonly db: Database;
  /** The app's data directory (uploaded files), a fresh temporary folder per file. */
  readonly dataDir: string;
  request: (
    method: NonNullable<InjectOptions["method"]>,
    url: string,
    options?: RequestOptions,
  ) => Promise<LightMyRequestResponse>;
  /** POST /control/clinro/login. */
  login: (
    username: string,
    password?: string,
    options?: Omit<RequestOptions, "body" | "token">,
  ) => Promise<LightMyRequestResponse>;
  /** Signs in (demo password by default) and answers the token; fails the test on anything but 200. */
  signIn: (username: string, password?: string) => Promise<string>;
  /** A new account of its own for a test that changes it; permissions in the given demo studies. */
  createUser: (options?: {
    password?: string;
    temporary?: boolean;
    studies?: Record<number, string>;
  }) => Promise<{ id: number; username: string; password: string }>;
};

let userCounter = 0;

/**
 * The run's seeded template of an engine: the PGlite tar file or the PostgreSQL template
 * database's name; undefined outside the API project's global setup.
 */
function seededTemplateOf(kind: DatabaseTarget["kind"]): string | undefined {
  const provided = kind === "pglite" ? inject("pgliteTemplateFile") : inject("postgresTemplateDatabase");
  return provided || undefined;
}

/**
 * Registers beforeAll/afterAll hooks in the current describe block that build one app on the
 * target database, and answers an object whose fields are ready inside the tests.
 */
export function useApiHarness(target: DatabaseTarget, options: HarnessOptions = {}): ApiHarness {
  let app: App | undefined;
  let handle: DatabaseHandle | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  // The seeded accounts' hash of the demo password, read right after seeding: new accounts with
  // that password reuse it instead of spending another argon2 hash each.
  let demoHash: string | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-api-"));
    // An unseeded database is made from nothing: the run's template holds the demo.
    const template = options.seed === "none" ? undefined : seededTemplateOf(target.kind);
    if (target.kind === "postgres") {
      if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
      const created = await createThrowawayDatabase(testDatabaseUrl, "test", template);
      dropDatabase = created.drop;
      handle = await openDatabase({ kind: "postgres", url: created.url, maxConnections: 4 });
    } else {
      const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
      handle = await openDatabase({ kind: "pglite", loadDataDir });
    }
    if (!template) {
      await handle.migrate();
      if (options.seed !== "none") await seedDemo(handle.db);
    }
    const [seeded] = await handle.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.username, "staff1@demo.test"));
    demoHash = seeded?.hash;
    const staticDir = typeof options.staticDir === "function" ? options.staticDir() : options.staticDir;
    app = await buildApp(
      {
        db: handle.db,
        tokens: createTokenSigner(TEST_SECRET_BYTES, TEST_TOKEN_TTL_S),
        loginRateLimit: options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT,
        dataDir,
        staticDir,
        video: options.video,
        signingSecret: TEST_SECRET_BYTES,
        notifications: handle.notifications,
        behindTlsProxy: options.behindTlsProxy,
      },
      // Every answer a test provokes must be one its call declares.
      { strictAnswers: true, ...options.appOptions },
    );
    await app.ready();
  });

  afterAll(async () => {
    try {
      await app?.close();
    } finally {
      try {
        await handle?.close();
      } finally {
        await dropDatabase?.();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    }
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The test ${what} is not ready: use it inside a test`);
    return value;
  };

  const harness: ApiHarness = {
    kind: target.kind,
    get app() {
      return ready(app, "app");
    },
    get handle() {
      return ready(handle, "database");
    },
    get db() {
      return ready(handle, "database").db;
    },
    get dataDir() {
      return ready(dataDir, "data directory");
    },
    request(method, url, { token, authorization, body, headers, remoteAddress } = {}) {
      const allHeaders: Record<string, string> = { ...headers };
      if (authorization !== undefined) allHeaders.authorization = authorization;
      else if (token !== undefined) allHeaders.authorization = `Bearer ${token}`;
      return harness.app.inject({
        method,
        url,
        headers: allHeaders,
        ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
        ...(remoteAddress === undefined ? {} : { remoteAddress }),
      });
    },
    login(username, password = DEMO_PASSWORD, requestOptions = {}) {
      return harness.request("POST", "/control/clinro/login", {
        ...requestOptions,
        body: { username, password },
      });
    },
    async signIn(username, password = DEMO_PASSWORD) {
      // A private address per sign-in keeps other tests' rate-limit counts out of the way.
      const response = await harness.login(username, password, { remoteAddress: "10.200.0.1" });
      if (response.statusCode !== 200) {
        throw new Error(`Sign-in of ${username} answered ${response.statusCode}: ${response.body}`);
      }
      return (response.json() as { token: string }).token;
    },
    async createUser({ password = DEMO_PASSWORD, temporary = false, studies = { 101: "11" } } = {}) {
      userCounter += 1;
      const username = `user${userCounter}-${randomBytes(3).toString("hex")}@test.example`;
      const [created] = await harness.db
        .insert(users)
        .values({
          username,
          passwordHash: password === DEMO_PASSWORD && demoHash ? demoHash : await hashPassword(password),
          name: `Test User ${userCounter}`,
          nickname: `Tester ${userCounter}`,
          fname: "Test",
          isTemporaryPassword: temporary,
        })
        .returning({ id: users.id });
      const id = created!.id;
      for (const [studyId, role] of Object.entries(studies)) {
        const study = DEMO_STUDIES.find((candidate) => candidate.id === Number(studyId));
        if (!study) throw new Error(`No demo study ${studyId}`);
        await harness.db
          .insert(studyPermissions)
          .values({ userId: id, studyId: study.id, role, scope: ["ca"] });
        await harness.db
          .insert(sitePermissions)
          .values(study.sites.map((site) => ({ userId: id, siteId: site.id })));
      }
      return { id, username, password };
    },
  };
  return harness;
}

/**
 * `describe(name)` with one nested block per database target, each with its own app and database.
 * A target that cannot run here is reported as skipped, with the reason in its title.
 */
export function describeOnEachDatabase(
  name: string,
  fn: (api: ApiHarness) => void,
  options: HarnessOptions = {},
) {
  describe(name, () => {
    for (const target of databaseTargets) {
      describe.skipIf(!target.available)(target.title, () => {
        fn(useApiHarness(target, options));
      });
    }
  });
}

/** Signs a token with the claims the server expects; tests vary one thing to make it bad. */
export async function signTestToken(
  claims: { id: number; username: string; ver?: number; jti?: string },
  {
    secret = TEST_SECRET_BYTES,
    expiresAt = Math.floor(Date.now() / 1000) + TEST_TOKEN_TTL_S,
  }: { secret?: Uint8Array; expiresAt?: number } = {},
) {
  return new SignJWT({ id: claims.id, username: claims.username, ver: claims.ver ?? 0 })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(claims.jti ?? crypto.randomUUID())
    .setIssuedAt(expiresAt - TEST_TOKEN_TTL_S)
    .setExpirationTime(expiresAt)
    .sign(secret);
}

/** An unsigned token (`alg: none`) with otherwise valid claims. */
export function unsignedToken(claims: { id: number; username: string; ver?: number }) {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: "none", typ: "JWT" })}.${encode({
    id: claims.id,
    username: claims.username,
    ver: claims.ver ?? 0,
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + TEST_TOKEN_TTL_S,
  })}.`;
}

/** Reads the payload of a JWT without verifying it. */
export function decodeTokenPayload(token: string): Record<string, unknown> {
  const [, payload] = token.split(".");
  return JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
}

/** The API's 404: JSON with the catalogue's text, never the app shell. */
export function expectNotFoundJson(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(404);
  expect(String(response.headers["content-type"])).toMatch(/^application\/json/);
  expect(errorBody.parse(response.json()).message).toBe("Page or resource not found.");
}

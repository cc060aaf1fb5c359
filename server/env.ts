/**
 * The server's environment, parsed once. No other server module reads process.env.
 */
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import type { DatabaseOptions } from "./db/client.ts";
import { iceServers } from "../core/contracts/visits.ts";

/** VIDEO_ICE_SERVERS: a JSON array of RTCIceServer entries. */
const iceServersJson = z.string().transform((text, context) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    context.addIssue({ code: "custom", message: "must be a JSON array of ICE servers" });
    return z.NEVER;
  }
  const parsed = iceServers.safeParse(value);
  if (!parsed.success) {
    context.addIssue({
      code: "custom",
      message: `must be a JSON array of ICE servers ({"urls": "turn:host:3478", "username": "...", "credential": "..."}): ${parsed.error.issues[0]?.message}`,
    });
    return z.NEVER;
  }
  return parsed.data;
});

/** proxy-addr's names for address ranges, which Fastify's trustProxy takes too. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyEntry(entry: string) {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** TRUSTED_PROXIES: addresses or CIDR ranges, comma-separated. */
const trustedProxies = z.string().transform((text, context) => {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const wrong = entries.filter((entry) => !isProxyEntry(entry));
  if (wrong.length > 0 || entries.length === 0) {
    context.addIssue({
      code: "custom",
      message: `must be addresses or CIDR ranges separated by commas (e.g. 10.0.0.5,192.168.1.0/24), or loopback; not ${wrong.join(", ") || "empty"}`,
    });
    return z.NEVER;
  }
  return entries;
});

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default("0.0.0.0"),
    DATA_DIR: z.string().default("./data"),
    /** A real PostgreSQL; when unset the embedded PGlite database under DATA_DIR is used. */
    DATABASE_URL: z.string().url().optional(),
    /**
     * The same database as the role that owns its tables and runs the migrations; DATABASE_URL
     * is then the server's own role, which may not alter the audit trail (docs/operations.md,
     * server/db/database-roles.ts). Unset: DATABASE_URL's role does both.
     */
    MIGRATION_DATABASE_URL: z.string().url().optional(),
    /** Signing secret for tokens; generated once and kept in DATA_DIR when unset. */
    JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
    TOKEN_TTL_S: z.coerce
      .number()
      .int()
      .positive()
      .default(12 * 60 * 60),
    /**
     * 'demo' seeds the demo site (its accounts have a published password) into an empty database;
     * 'none' seeds nothing. Unset: the demo on the embedded database, nothing with DATABASE_URL,
     * so that a real PostgreSQL never gets the demo accounts by accident (seedChoice).
     */
    SEED: z.enum(["demo", "none"]).optional(),
    /** Failed sign-ins per account and address in a window (server/auth/login-rate-limit.ts). */
    LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
    /** Failed sign-ins per address, all accounts together, in a window. */
    LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(100),
    /**
     * The proxies (load balancer, nginx) whose X-Forwarded-For the server believes: the client's
     * address is then the one they forward, for the sign-in limit and the audit trail. Unset, the
     * header is ignored and the address is the socket's (behind a proxy: the proxy's, which all
     * clients would share).
     */
    TRUSTED_PROXIES: trustedProxies.optional(),
    /**
     * The nice value (0 to 19) of the threads that hash passwords: 10 by default, so that a wave
     * of sign-ins takes the CPU the calls of clinicians at work leave (server/auth/password-threads.ts);
     * 0 gives them the server's own priority.
     */
    PASSWORD_HASH_NICE: z.coerce.number().int().min(0).max(19).default(10),
    LOGIN_WINDOW_S: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60),
    /** Where the built app lives. */
    STATIC_DIR: z.string().default("./dist"),
    /**
     * Outgoing mail (activation, password reset, username reminder), e.g. smtp://user:pass@host:587
     * or smtps://...; when unset each message is written to DATA_DIR/mail/ as an .eml file (the log
     * names the file, never its link).
     */
    SMTP_URL: z.string().url().optional(),
    /** The From of account mail. */
    MAIL_FROM: z.string().min(3).default("ClinRO portal <no-reply@localhost>"),
    /** The portal's address as users reach it, for links in mail; default http://localhost:PORT. */
    PUBLIC_URL: z.string().url().optional(),
    /** Agora App ID and App Certificate: both set makes Agora the video service of virtual visits. */
    AGORA_APP_ID: z.string().trim().min(1).optional(),
    AGORA_APP_CERTIFICATE: z.string().trim().min(1).optional(),
    /**
     * STUN/TURN servers for the built-in video service, a JSON array of RTCIceServer; default none,
     * which connects two devices on one network. Two sides behind different NATs need a TURN server.
     */
    VIDEO_ICE_SERVERS: iceServersJson.default([]),
    /**
     * The portal is reached through a proxy (a load balancer, nginx) that terminates TLS: every
     * answer then carries Strict-Transport-Security. Without it, HSTS is sent on TLS requests only.
     */
    BEHIND_TLS_PROXY: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .default("false")
      .transform((value) => value === "true" || value === "1"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .superRefine((env, context) => {
    if (env.MIGRATION_DATABASE_URL !== undefined && env.DATABASE_URL === undefined) {
      context.addIssue({
        code: "custom",
        path: ["MIGRATION_DATABASE_URL"],
        message: "needs DATABASE_URL (the server's role on the same PostgreSQL database)",
      });
    }
    // Half an Agora account would quietly fall back to the built-in service: say so instead.
    if ((env.AGORA_APP_ID === undefined) !== (env.AGORA_APP_CERTIFICATE === undefined)) {
      context.addIssue({
        code: "custom",
        path: [env.AGORA_APP_ID === undefined ? "AGORA_APP_ID" : "AGORA_APP_CERTIFICATE"],
        message:
          "set both AGORA_APP_ID and AGORA_APP_CERTIFICATE for Agora, or neither for the built-in video service",
      });
    }
  });

export type ServerEnv = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(source).filter(([, value]) => value !== "")),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}

/** What an empty database is seeded with: SEED, else the demo on the embedded database only. */
export function seedChoice(env: Pick<ServerEnv, "SEED" | "DATABASE_URL">): "demo" | "none" {
  return env.SEED ?? (env.DATABASE_URL ? "none" : "demo");
}

/** The database the environment names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR. */
export function databaseOptionsFrom(env: ServerEnv): DatabaseOptions {
  return env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "pglite", dataDir: path.join(env.DATA_DIR, "pglite") };
}

/**
 * What npm tells a process it starts: the script's name (npm_lifecycle_event: "clinro" under
 * `npm run clinro`, "npx" under npx) and npm's log level ("silent" under --silent). The command
 * line reads it to know whether npm printed its banner on standard output (cli/npm-banner.ts).
 */
export function npmLaunch(source: NodeJS.ProcessEnv = process.env) {
  return { event: source.npm_lifecycle_event, loglevel: source.npm_config_loglevel };
}

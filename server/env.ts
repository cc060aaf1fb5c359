/**
 * The server's environment, parsed once. No other server module reads process.env.
 */
import { z } from "zod";

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  /** A real PostgreSQL; when unset the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** Signing secret for tokens; generated once and kept in DATA_DIR when unset. */
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 60 * 60),
  /** 'demo' seeds the demo site into an empty database; 'none' seeds nothing. */
  SEED: z.enum(["demo", "none"]).default("demo"),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_S: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  /** Where the built app lives. */
  STATIC_DIR: z.string().default("./dist"),
  /**
   * Outgoing mail (activation, password reset, username reminder), e.g. smtp://user:pass@host:587
   * or smtps://...; when unset each message is written to DATA_DIR/mail/ as an .eml file and its
   * link is logged.
   */
  SMTP_URL: z.string().url().optional(),
  /** The From of account mail. */
  MAIL_FROM: z.string().min(3).default("ClinRO portal <no-reply@localhost>"),
  /** The portal's address as users reach it, for links in mail; default http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
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

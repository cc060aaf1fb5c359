import type { Database } from "./db/client.ts";
import type { LoginRateLimit } from "./auth/login-rate-limit.ts";
import type { TokenSigner } from "./auth/tokens.ts";

/** What every route needs, built once at start and passed down. */
export type AppContext = {
  db: Database;
  tokens: TokenSigner;
  loginRateLimit: LoginRateLimit;
  /** Where uploaded files are kept (under files/). */
  dataDir: string;
  /**
   * Outgoing mail. Without smtpUrl each message is written to dataDir/mail/ as an .eml file and
   * its link is logged; links start with publicUrl (default http://localhost).
   */
  mail?: { smtpUrl?: string; from?: string; publicUrl?: string };
  /** The built app to serve; undefined serves the API alone (API tests). */
  staticDir?: string;
};

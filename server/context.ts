import type { Database, DatabaseNotifications } from "./db/client.ts";
import type { LoginRateLimit } from "./auth/login-rate-limit.ts";
import type { TokenSigner } from "./auth/tokens.ts";
import type { VideoSettings } from "./visits/video-settings.ts";

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
  /** Virtual visits' video service; undefined: the built-in one without ICE servers. */
  video?: VideoSettings;
  /**
   * Signs the built-in video service's room tickets (a key is derived from it). Servers sharing a
   * database must share it (the JWT signing secret); undefined: a random one for this process.
   */
  signingSecret?: Uint8Array;
  /** PostgreSQL's LISTEN/NOTIFY: visit signalling across server processes. Unset on PGlite. */
  notifications?: DatabaseNotifications;
  /** Reached through a proxy that terminates TLS: every answer carries Strict-Transport-Security. */
  behindTlsProxy?: boolean;
  /**
   * The PUBLIC_URL the site configured (not the mail links' localhost default): FHIR exports name
   * their Questionnaires with canonical URLs under it; without it, with urn: names.
   */
  publicUrl?: string;
  /** The built app to serve; undefined serves the API alone (API tests). */
  staticDir?: string;
};

/**
 * The database schema: one statement of every table, for PGlite and PostgreSQL alike.
 * Changes go through `npm run db:generate`, which writes a migration under server/db/migrations.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export type StudyConfig = {
  virtual_visits?: boolean;
  instrument_architecture_version?: number;
  clinro?: { greeting?: string };
};

export const users = pgTable("users", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  /** The login email, stored lower-cased so that sign-in is case-insensitive. */
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  name: text("name").notNull().default(""),
  nickname: text("nickname").notNull().default(""),
  fname: text("fname").notNull().default(""),
  phone: text("phone").notNull().default(""),
  isPhoneEnabled: boolean("is_phone_enabled").notNull().default(false),
  countryDialCode: text("country_dial_code").notNull().default(""),
  /** User-management role: enroller, researcher, studyManager, administrator (legacy 'edit'). */
  role: text("role").notNull().default("researcher"),
  /** User scope codes, e.g. 'wu' (may edit other users). Never shown in the interface. */
  scope: text("scope")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  isTemporaryPassword: boolean("is_temporary_password").notNull().default(false),
  hasConsented: boolean("has_consented").notNull().default(true),
  /** Bumped on every password change: tokens carrying an older version are refused. */
  tokenVersion: integer("token_version").notNull().default(0),
  lastLogin: timestamp("last_login", { withTimezone: true, mode: "date" }),
  /** The browser's UTC offset in minutes, from the hpi-utc-offset header of the last sign-in. */
  utcOffsetMinutes: integer("utc_offset_minutes"),
  /** The onboarding cards the user has dismissed: 'activities', 'announcements' (spec 02 section 9). */
  onboardingDismissed: text("onboarding_dismissed")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdBy: integer("created_by"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  /**
   * Set when an administrator deactivates the account: its tokens stop working at the next
   * request and it cannot sign in; its past signatures and audit rows stay.
   */
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true, mode: "date" }),
});

export const studies = pgTable("studies", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  smsEnabled: boolean("sms_enabled").notNull().default(false),
  newConsentEnabled: boolean("new_consent_enabled").notNull().default(false),
  config: jsonb("config").$type<StudyConfig>().notNull().default({}),
});

export const sites = pgTable(
  "sites",
  {
    id: integer("id").primaryKey(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    label: text("label").notNull(),
    treeLevel: integer("tree_level").notNull(),
    isVirtual: boolean("is_virtual").notNull().default(false),
    /** A site removed from the study file: kept with its participants, offered for no new work. */
    retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("sites_study_idx").on(t.studyId)],
);

/** A user's permission in one study: the clinician role and the study scope codes (ca, cp...). */
export const studyPermissions = pgTable(
  "study_permissions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    /** '11', '12', '13', '16' or 'Impartial Witness'. */
    role: text("role").notNull(),
    scope: text("scope")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.studyId] })],
);

/** The sites of a study a user may work in. */
export const sitePermissions = pgTable(
  "site_permissions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] })],
);

export const participants = pgTable(
  "participants",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    fname: text("fname").notNull(),
    lname: text("lname").notNull(),
    /** m, f, o or null. */
    gender: text("gender"),
    dateOfBirth: date("date_of_birth", { mode: "string" }),
    subjectId: text("subject_id").notNull().default(""),
    email: text("email"),
    /**
     * The id the enrolling device gave the participant (a UUID): an enrolment sent again by the
     * outbox finds the participant it already made, and writes queued for that participant
     * offline name it until the server's id is known.
     */
    clientId: text("client_id").unique(),
    firstLoginTimestamp: timestamp("first_login_timestamp", { withTimezone: true, mode: "date" }),
    lastUpdated: timestamp("last_updated", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * When the participant was enrolled (set by the database at insert); null for participants
     * enrolled before it was recorded (migration 0016 leaves them unknown rather than guess).
     */
    enrolledAt: timestamp("enrolled_at", { withTimezone: true, mode: "date" }).defaultNow(),
  },
  (t) => [
    index("participants_study_site_idx").on(t.studyId, t.siteId),
    // The site's participant list (routes/participants/list.ts) pages by keyset in each of its
    // orders: each index answers one order, read from where the previous page ended.
    index("participants_site_list_id_idx").on(t.studyId, t.siteId, t.id),
    index("participants_site_list_subject_id_idx").on(t.studyId, t.siteId, t.subjectId, t.id),
    index("participants_site_list_name_idx").on(
      t.studyId,
      t.siteId,
      sql`lower(${t.lname})`,
      sql`lower(${t.fname})`,
      t.id,
    ),
    // A subject id names one participant in its study (an empty one is the legacy 'none').
    uniqueIndex("participants_study_subject_id_key")
      .on(t.studyId, t.subjectId)
      .where(sql`${t.subjectId} <> ''`),
    // Participant search is a case-insensitive substring match (ILIKE '%term%') on each of these:
    // trigram GIN indexes answer it without reading every row (needs the pg_trgm extension).
    // fastupdate off: a new participant goes straight into the index instead of a pending list
    // that only VACUUM empties (PGlite has no autovacuum), and while it is long the planner
    // prefers reading the whole table. Participants are added rarely; searches are frequent.
    index("participants_fname_trgm_idx").using("gin", t.fname.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("participants_lname_trgm_idx").using("gin", t.lname.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("participants_subject_id_trgm_idx")
      .using("gin", t.subjectId.op("gin_trgm_ops"))
      .with({ fastupdate: false }),
  ],
);

/** Tokens signed out before they expired. Rows past expires_at may be deleted. */
export const revokedTokens = pgTable("revoked_tokens", {
  jti: text("jti").primaryKey(),
  userId: integer("user_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * Refused signing passwords in a row per session (token jti): the signature dialog's cap
 * (server/consents/signing-attempts.ts). Counted before each check, in one statement, so that
 * tries sent at once cannot all be checked. Rows past expires_at may be deleted.
 */
export const signingAttempts = pgTable("signing_attempts", {
  jti: text("jti").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  attempts: integer("attempts").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * Single-use links mailed to a user: 'activation' (a new account sets its first password) and
 * 'reset' (forgot password). Only the SHA-256 of the random token is kept, so a copy of the
 * database does not hold usable links. used_at is set when the link is used or superseded.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 'activation' or 'reset'. */
    purpose: text("purpose").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("account_tokens_user_idx").on(t.userId, t.purpose)],
);

/** Account mails sent to a user (activation, reset, username reminder): the per-user mail limit. */
export const accountMails = pgTable(
  "account_mails",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("account_mails_user_kind_idx").on(t.userId, t.kind, t.sentAt)],
);

/** Failed sign-ins per (username, address) in the current window: the sign-in rate limit. */
export const loginAttempts = pgTable("login_attempts", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * Idempotency records: one per (user, Idempotency-Key), written in the same transaction as the
 * write it guards, holding the answer that a repeated request gets back.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** SHA-256 of the request body: the same key with another body is refused. */
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code").notNull(),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Instrument and announcement events (delivered, seen, completed, submitFailed...). */
export const participantEvents = pgTable(
  "participant_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    participantId: integer("participant_id"),
    studyId: integer("study_id"),
    type: text("type").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull(),
    info: jsonb("info").$type<Record<string, unknown>>().notNull().default({}),
    platform: text("platform").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("participant_events_participant_idx").on(t.participantId, t.type)],
);

/** Files uploaded for instruments and consents; their bytes are in uploadedFileContents. */
export const uploadedFiles = pgTable("uploaded_files", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
  participantId: integer("participant_id")
    .notNull()
    .references(() => participants.id),
  moduleName: text("module_name").notNull(),
  platform: text("platform").notNull(),
  /** The name the client gave (the spec's file name pattern); unique per participant. */
  fileName: text("file_name").notNull(),
  storedName: text("stored_name").notNull(),
  contentType: text("content_type").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** PostgreSQL's bytea, read back as a Uint8Array whichever driver (PGlite, postgres.js) read it. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * An uploaded file's bytes, in the database so that every server of one PostgreSQL reads them
 * (and a backup holds them). Its audit rows record the SHA-256 and size, not the bytes
 * (migration 0013).
 */
export const uploadedFileContents = pgTable(
  "uploaded_file_contents",
  {
    fileId: integer("file_id")
      .primaryKey()
      .references(() => uploadedFiles.id, { onDelete: "cascade" }),
    content: bytea("content").notNull(),
    sha256: text("sha256").notNull(),
  },
  (t) => [check("uploaded_file_contents_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`)],
);

/** Instrument metadata as stored: the spec's fields, and whatever else a later definition adds. */
export type InstrumentMetadata = {
  display_name?: string;
  schedule?: { recurring?: { scheme?: string } };
  /** 'specific_time': shown only inside one of visibilityRanges (local h:mm). */
  visibility?: string;
  visibilityRanges?: { start: string; end: string }[];
  [key: string]: unknown;
};

/**
 * The instruments deployed in a study (clinician-rated forms and announcements). Their survey
 * definitions are in instrument_definitions, what was submitted in instrument_submissions.
 */
export const instruments = pgTable(
  "instruments",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    /** CLINRO or ANNOUNCEMENT (SURVEY and ARTICLE belong to the participant app). */
    instrumentType: text("instrument_type").notNull(),
    /** The {instrument} segment of the instrument's url. */
    slug: text("slug").notNull(),
    /** Clinician role codes that may administer it. */
    permissions: text("permissions")
      .array()
      .notNull()
      .default(sql`'{16,11,12,13}'::text[]`),
    visibleDays: integer("visible_days").notNull().default(1),
    /** The first delivery to a new participant starts this many days after enrolment. */
    startOffsetDays: integer("start_offset_days").notNull().default(0),
    /** An instrument removed from the study file: its submissions stay, no new deliveries. */
    retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }),
    metadata: jsonb("metadata").$type<InstrumentMetadata>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("instruments_study_idx").on(t.studyId)],
);

/** One delivery of an instrument to one participant, and its completion when done. */
export const instrumentInstances = pgTable(
  "instrument_instances",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    instrumentId: integer("instrument_id")
      .notNull()
      .references(() => instruments.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    startDate: timestamp("start_date", { withTimezone: true, mode: "date" }).notNull(),
    expiration: timestamp("expiration", { withTimezone: true, mode: "date" }),
    completion: timestamp("completion", { withTimezone: true, mode: "date" }),
    whoCompleted: integer("who_completed").references(() => users.id),
  },
  (t) => [
    index("instrument_instances_participant_idx").on(t.participantId, t.instrumentId),
    // The open deliveries (pending lists, history's pending part): a participant's years of
    // completed instances are not read to find them (migration 0017).
    index("instrument_instances_open_idx")
      .on(t.participantId, t.startDate)
      .where(sql`${t.completion} is null`),
  ],
);

/** How a definition is served by the definition call: JSON, or a zip holding one JSON file. */
export type DefinitionServedAs = "json" | "zip";

/**
 * The survey definitions of an instrument, one row per version (core/contracts/survey-definition.ts
 * is the format). The definition call serves the highest version_number; a submission names the
 * version it answered, so older versions stay to validate late submissions.
 */
export const instrumentDefinitions = pgTable(
  "instrument_definitions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    instrumentId: integer("instrument_id")
      .notNull()
      .references(() => instruments.id),
    versionNumber: integer("version_number").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    servedAs: text("served_as").$type<DefinitionServedAs>().notNull().default("json"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    unique("instrument_definitions_instrument_version_key").on(t.instrumentId, t.versionNumber),
    check("instrument_definitions_served_as_check", sql`${t.servedAs} in ('json', 'zip')`),
  ],
);

/**
 * Completed instruments as received: the client's payload, the scores the server computed from
 * it, and the instance it completed. instrument_instance_id is null only for rows whose instance
 * was removed; client_instance_id is the payload's instance_id (the client may make one up).
 */
export const instrumentSubmissions = pgTable(
  "instrument_submissions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    instrumentId: integer("instrument_id")
      .notNull()
      .references(() => instruments.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    instrumentInstanceId: integer("instrument_instance_id").references(() => instrumentInstances.id),
    clientInstanceId: text("client_instance_id").notNull(),
    versionNumber: integer("version_number").notNull(),
    submittedBy: integer("submitted_by")
      .notNull()
      .references(() => users.id),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }).notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    scores: jsonb("scores").$type<unknown>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("instrument_submissions_participant_idx").on(t.participantId, t.instrumentId)],
);

/** The consents deployed in a study (spec 02 section 3): type is CONSENT; version counts up. */
export const consents = pgTable(
  "consents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    title: text("title").notNull(),
    type: text("type").notNull().default("CONSENT"),
    version: integer("version").notNull().default(1),
    dateDeployed: timestamp("date_deployed", { withTimezone: true, mode: "date" }).notNull(),
    /** The imported definition's id: a later import with the same id is a new version of this consent. */
    definitionKey: text("definition_key"),
    /** A consent removed from the study file: its signings stay, no new participants get it. */
    retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("consents_study_idx").on(t.studyId),
    unique("consents_study_definition_key").on(t.studyId, t.definitionKey),
  ],
);

/**
 * One participant's progress through one consent (spec 02 section 4): the status is
 * awaiting_participant, awaiting_clinro, awaiting_witness, complete or declined; version is the
 * consent version the participant is on.
 */
export const consentParticipants = pgTable(
  "consent_participants",
  {
    consentId: integer("consent_id")
      .notNull()
      .references(() => consents.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    version: integer("version").notNull(),
    status: text("status").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.consentId, t.participantId] }),
    index("consent_participants_participant_idx").on(t.participantId),
    // The consents list's missing consents read the unfinished statuses only, not every
    // participant who signed years ago (migration 0018).
    index("consent_participants_unfinished_idx")
      .on(t.consentId, t.participantId)
      .where(sql`${t.status} not in ('complete', 'declined')`),
  ],
);

/**
 * The published versions of a consent (server/consents/consent-definitions.ts): the definition
 * as imported, never changed afterwards (migration 0010's trigger refuses UPDATE and DELETE).
 */
export const consentVersions = pgTable(
  "consent_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    consentId: integer("consent_id")
      .notNull()
      .references(() => consents.id),
    version: integer("version").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [unique("consent_versions_consent_version_key").on(t.consentId, t.version)],
);

/**
 * One submission of a consent for a participant (a clinician or witness session): the answers
 * of that session as received, who sent them and through which endpoint ('clinro' or 'witness').
 */
export const consentSignings = pgTable(
  "consent_signings",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    consentId: integer("consent_id")
      .notNull()
      .references(() => consents.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    version: integer("version").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    endpoint: text("endpoint").notNull(),
    records: jsonb("records").$type<unknown[]>().notNull(),
    completion: timestamp("completion", { withTimezone: true, mode: "date" }).notNull(),
    browserInfo: text("browser_info"),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("consent_signings_participant_idx").on(t.participantId, t.consentId, t.version),
    check("consent_signings_endpoint_check", sql`${t.endpoint} in ('clinro', 'witness')`),
  ],
);

/**
 * The signatures of a consent (21 CFR 11.50, 11.70): the manifestation (printed name, meaning,
 * role, both times, zone) and hash, the SHA-256 of the canonical signed content
 * (server/consents/signature-hash.ts) that links the signature to its record.
 * captured_at is the device's ISO time with its offset, kept as sent.
 */
export const consentSignatures = pgTable(
  "consent_signatures",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    signingId: integer("signing_id")
      .notNull()
      .references(() => consentSignings.id),
    consentId: integer("consent_id")
      .notNull()
      .references(() => consents.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    version: integer("version").notNull(),
    questionId: text("question_id").notNull(),
    role: text("role").notNull(),
    meaning: text("meaning").notNull(),
    printedName: text("printed_name").notNull(),
    signatureType: text("signature_type").notNull(),
    /** The uploaded image's file name, or the typed name. */
    value: text("value").notNull(),
    /** The portal user who signed (clinro and witness signatures); null for participants and caregivers. */
    signerUserId: integer("signer_user_id").references(() => users.id),
    capturedAt: text("captured_at").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull(),
    timeZone: text("time_zone").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("consent_signatures_participant_idx").on(t.participantId, t.consentId, t.version),
    check(
      "consent_signatures_role_check",
      sql`${t.role} in ('participant', 'caregiver', 'clinro', 'witness')`,
    ),
  ],
);

/**
 * The server's signing key pair (RSA-OAEP-256): clients encrypt the signer's password to the
 * public key. Made once by the first server that needs it and kept here, so every server of one
 * PostgreSQL decrypts with the same key. The private key never leaves the server.
 */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  publicJwk: jsonb("public_jwk").$type<Record<string, unknown>>().notNull(),
  privateKeyPem: text("private_key_pem").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * The audit trail (server/audit/): append-only, one row per insert, update and delete on every
 * other table (written by the clinro_audit trigger, migration 0008_audit_triggers) and per
 * event that changes no row (sign-in, failed sign-in, refused authorisation, refused
 * signature). The database
 * refuses UPDATE, DELETE and TRUNCATE on it. Each row is chained to the one before: id is the
 * chain position (the insert trigger assigns it under an advisory lock, so ids have no gaps
 * unless rows were removed) and hash = SHA-256(prev_hash || canonical content of the row).
 */
export const auditLog = pgTable("audit_log", {
  /** Assigned by the chain trigger (the default is a placeholder it always replaces). */
  id: bigint("id", { mode: "number" }).primaryKey().default(0),
  /** Server time, UTC (clock_timestamp() in the trigger). */
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  /** The user who acted (the transaction's clinro.actor_id setting); null for the system or unknown. */
  actorUserId: integer("actor_user_id"),
  /** insert, update, delete, sign_in, sign_in_failed, forbidden, signature_refused... */
  action: text("action").notNull(),
  tableName: text("table_name"),
  /** The changed row's primary key, e.g. {"id": 5}. */
  rowKey: jsonb("row_key").$type<Record<string, unknown>>(),
  oldValues: jsonb("old_values").$type<Record<string, unknown>>(),
  newValues: jsonb("new_values").$type<Record<string, unknown>>(),
  /** What an event adds (address, path, reason) and which redacted columns changed. */
  details: jsonb("details").$type<Record<string, unknown>>(),
  prevHash: text("prev_hash").notNull().default(""),
  hash: text("hash").notNull().default(""),
});

/**
 * Virtual visits (spec 01 "Virtual visits page"): one video room (room_name) with one participant
 * at one study site. token is the visit's own room token (opaque, not a credential: the room
 * connects with the short-lived token validate_room answers); null means the visit has no video
 * room and its row offers a mail instead. The participant's join link carries a secret of which
 * only the SHA-256 is kept; it opens this room only.
 */
export const visits = pgTable(
  "visits",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id),
    roomName: text("room_name").notNull().unique(),
    visitTime: timestamp("visit_time", { withTimezone: true, mode: "date" }).notNull(),
    /** Minutes. */
    visitDuration: integer("visit_duration").notNull(),
    isRecorded: boolean("is_recorded").notNull().default(false),
    isAdhoc: boolean("is_adhoc").notNull().default(false),
    token: text("token"),
    joinSecretHash: text("join_secret_hash").unique(),
    /** Null when scheduled by the clinro command or the demo seed. */
    createdBy: integer("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("visits_study_site_time_idx").on(t.studyId, t.siteId, t.visitTime),
    check("visits_duration_check", sql`${t.visitDuration} > 0`),
  ],
);

/**
 * Who is in each built-in video room now, across every server process on the database: a room
 * holds at most two peers. Each server refreshes seen_at of its own peers; rows not refreshed
 * for a while belong to a server that stopped and are swept.
 */
export const visitRoomPeers = pgTable(
  "visit_room_peers",
  {
    peerId: text("peer_id").primaryKey(),
    roomName: text("room_name").notNull(),
    /** clinician or participant. */
    role: text("role").notNull(),
    serverId: text("server_id").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("visit_room_peers_room_idx").on(t.roomName),
    index("visit_room_peers_server_idx").on(t.serverId),
  ],
);

/**
 * Signalling messages too large for one PostgreSQL NOTIFY payload (under 8000 bytes): the
 * notification carries the row's id instead. Rows are read once by each server and swept
 * after a few minutes.
 */
export const visitSignalSpill = pgTable("visit_signal_spill", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  payload: text("payload").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * Announcements to a study's staff, or to one site's (site_id set), written by a coordinator or
 * an administrator (the inbox, spec 02). content is HTML as sanitised on the way in
 * (server/announcements/sanitize-announcement.ts); the app sanitises it again when it shows it.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id),
    siteId: integer("site_id").references(() => sites.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    authorUserId: integer("author_user_id").references(() => users.id),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("announcements_study_site_idx").on(t.studyId, t.siteId)],
);

/** When a user read an announcement (its read event, spec 02 section 4). */
export const announcementReads = pgTable(
  "announcement_reads",
  {
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.userId] }),
    index("announcement_reads_user_idx").on(t.userId),
  ],
);

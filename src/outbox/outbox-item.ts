/**
 * What the outbox keeps: every write the portal makes, stored before it is sent. An item holds
 * what to send (not a frozen request: the token is read at send time), who made it and for whom,
 * and how sending has gone so far. Plain data, so IndexedDB can keep it: a file is kept as its
 * bytes and type, never as a Blob, because WebKit's private storage (Safari's Private Browsing,
 * every WebDriver session) refuses to store a Blob in IndexedDB.
 */
/**
 * enrolment: a participant added at a site (offline enrolment, provisional-participants.ts);
 * revocation: a sign-out to tell the server (session-revocation.ts); signing-refusal: a wrong
 * signing password refused on the device while offline, for the audit trail (21 CFR 11.300(d)).
 */
export type OutboxKind =
  "submission" | "consent" | "upload" | "event" | "enrolment" | "revocation" | "signing-refusal";

/** A file of a multipart body as the outbox keeps it. */
export type StoredFile = { field: string; fileName: string; type: string; bytes: ArrayBuffer };

export type OutboxBody =
  | { type: "json"; value: unknown }
  /** A call without a body (a sign-out). */
  | { type: "empty" }
  | { type: "multipart"; fields: Record<string, string>; files: StoredFile[] };

export type OutboxRequest = {
  method: "POST" | "PUT" | "PATCH";
  path: string;
  query?: Record<string, string>;
  /** Extra headers, e.g. the spec's header versions (010 for submissions, 009 for uploads). */
  headers?: Record<string, string>;
  body: OutboxBody;
};

export type OutboxError = {
  /** network: no answer; http: an answer that was not 2xx. */
  kind: "network" | "http";
  status?: number;
  /** The error body's code, when the server gave one (e.g. signing_password_invalid). */
  code?: string;
  message: string;
  at: number;
};

/**
 * pending: waiting to be sent (again); failed: the server refused it for good (a 4xx other than
 * 401, 408 and 429); it is kept and shown, never retried blindly.
 */
export type OutboxState = "pending" | "failed";

export type OutboxItem = {
  /** Made by the client; also the Idempotency-Key, so a repeated send is stored once. */
  id: string;
  kind: OutboxKind;
  request: OutboxRequest;
  userId: number;
  username: string;
  studyId?: number;
  siteId?: number;
  /**
   * The participant the item is about: the server's id, or a provisional (negative) id while the
   * participant's enrolment has not reached the server (provisional-participants.ts).
   */
  participantId?: number;
  /** What a person recognises: the instrument's or the file's name. */
  label: string;
  sizeBytes: number;
  createdAt: number;
  attempts: number;
  lastError?: OutboxError;
  state: OutboxState;
  /** Not sent before this time (backoff). */
  nextAttemptAt: number;
  /**
   * Items that must be delivered first: a submission waits for its uploads, a write for a
   * participant enrolled offline waits for their enrolment.
   */
  dependsOn: string[];
  /** The draft to remove once this item is delivered. */
  draftKey?: string;
  /**
   * The instrument delivery a submission completes: the participant's to-do list shows it as
   * waiting to send, never as a form to start again.
   */
  instrument?: { id: number; instanceId?: number | undefined };
  /**
   * The consent a consent signing is for, and whether it completes it: while it waits to be
   * sent, the participant's instruments open on this device (consent first,
   * core/contracts/consent-gate.ts), and the ratings queued after it follow it to the server.
   */
  consent?: { id: number; completes: boolean };
  /**
   * The session the item belongs to, sent with its token instead of the user's current one: a
   * revocation names the token it ends, and a signing refusal was made in that session. Such an
   * item needs no sign-in to be sent; once the token has expired, a refusal goes with the user's
   * current token and a revocation has nothing left to end.
   */
  session?: { token: string; exp: number };
};

/** How an item stands, derived for screens (the network-error and failed-files modals). */
export type OutboxItemStatus =
  "queued" | "retrying" | "waiting-for-dependencies" | "waiting-for-sign-in" | "failed";

/**
 * What the outbox and the drafts keep in IndexedDB outlives an app update: every stored record
 * carries a schemaVersion, is read with a zod parse, and an older shape is migrated as it is
 * read. A record that cannot be read (damaged, or written by a newer version of the app after a
 * rollback) is never dropped: the outbox leaves it in place and shows it on the review page, the
 * drafts move it aside, and both can be exported (listUnreadableRecords).
 *
 * zod/mini keeps these schemas small: the outbox is part of the app's first download.
 *
 * Versions of an outbox item:
 * - 0: the shapes before versioning (no schemaVersion field), files as Blobs;
 * - 1: the same fields with schemaVersion: 1;
 * - 2: a multipart body's files as bytes and type (`{ field, fileName, type, bytes }`), since
 *   WebKit's private storage refuses Blobs. Reading a Blob takes a promise, so an older record
 *   holding files is upgraded by upgradeOutboxRecord (the store writes it back) before it is
 *   read; read as it is, it is not yet readable;
 * - 3: the kind "enrolment" (offline enrolment), and a participantId that may be provisional
 *   (negative); a version 2 record is read as it is;
 * - 4: the kinds "revocation" and "signing-refusal", a body of type "empty", and the session an
 *   item belongs to (`session`, its token and expiry), the code of a refusal (`lastError.code`);
 *   a version 3 record is read as it is;
 * - 5: the consent a consent signing is for and whether it completes it (`consent`, consent
 *   first); a version 4 record is read as it is.
 * A draft's record is at version 1 (its value is the caller's: survey-draft.ts keeps its files as
 * bytes and reads the older Map of Blobs).
 */
import * as z from "zod/mini";
import type { OutboxItem, StoredFile } from "./outbox-item.ts";

export const OUTBOX_SCHEMA_VERSION = 5;

/** An ArrayBuffer of any realm (IndexedDB hands back its clone; a worker's is another realm). */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === "[object ArrayBuffer]";
}
export const DRAFT_SCHEMA_VERSION = 1;

const blob = z.custom<Blob>((value) => typeof Blob !== "undefined" && value instanceof Blob);
const bytes = z.custom<ArrayBuffer>((value) => isArrayBuffer(value));
const stringRecord = z.record(z.string(), z.string());

const jsonBody = z.object({ type: z.literal("json"), value: z.unknown() });
const blobFile = z.object({ field: z.string(), blob, fileName: z.string() });
const storedFile = z.object({ field: z.string(), fileName: z.string(), type: z.string(), bytes });

const outboxBodyV1 = z.discriminatedUnion("type", [
  jsonBody,
  z.object({ type: z.literal("multipart"), fields: stringRecord, files: z.array(blobFile) }),
]);
const outboxBodyV2 = z.discriminatedUnion("type", [
  jsonBody,
  z.object({ type: z.literal("multipart"), fields: stringRecord, files: z.array(storedFile) }),
]);

const outboxItemV0 = z.object({
  id: z.string().check(z.minLength(1)),
  kind: z.enum(["submission", "consent", "upload", "event"]),
  request: z.object({
    method: z.enum(["POST", "PUT", "PATCH"]),
    path: z.string(),
    query: z.optional(stringRecord),
    headers: z.optional(stringRecord),
    body: outboxBodyV1,
  }),
  userId: z.number(),
  username: z.string(),
  studyId: z.optional(z.number()),
  siteId: z.optional(z.number()),
  participantId: z.optional(z.number()),
  label: z.string(),
  sizeBytes: z.number(),
  createdAt: z.number(),
  attempts: z.number(),
  lastError: z.optional(
    z.object({
      kind: z.enum(["network", "http"]),
      status: z.optional(z.number()),
      message: z.string(),
      at: z.number(),
    }),
  ),
  state: z.enum(["pending", "failed"]),
  nextAttemptAt: z.number(),
  dependsOn: z.array(z.string()),
  draftKey: z.optional(z.string()),
  instrument: z.optional(z.object({ id: z.number(), instanceId: z.optional(z.number()) })),
});

const outboxItemV1 = z.extend(outboxItemV0, { schemaVersion: z.literal(1) });
const outboxItemV2 = z.extend(outboxItemV0, {
  schemaVersion: z.literal(2),
  request: z.extend(outboxItemV0.shape.request, { body: outboxBodyV2 }),
});
const outboxItemV3 = z.extend(outboxItemV2, {
  schemaVersion: z.literal(3),
  kind: z.enum(["submission", "consent", "upload", "event", "enrolment"]),
});
const outboxItemV4 = z.extend(outboxItemV3, {
  schemaVersion: z.literal(4),
  kind: z.enum(["submission", "consent", "upload", "event", "enrolment", "revocation", "signing-refusal"]),
  request: z.extend(outboxItemV2.shape.request, {
    body: z.discriminatedUnion("type", [
      jsonBody,
      z.object({ type: z.literal("multipart"), fields: stringRecord, files: z.array(storedFile) }),
      z.object({ type: z.literal("empty") }),
    ]),
  }),
  session: z.optional(z.object({ token: z.string().check(z.minLength(1)), exp: z.number() })),
  lastError: z.optional(
    z.object({
      kind: z.enum(["network", "http"]),
      status: z.optional(z.number()),
      code: z.optional(z.string()),
      message: z.string(),
      at: z.number(),
    }),
  ),
});

const outboxItemV5 = z.extend(outboxItemV4, {
  schemaVersion: z.literal(5),
  consent: z.optional(z.object({ id: z.number(), completes: z.boolean() })),
});

const draftV0 = z.object({
  key: z.string(),
  userId: z.number(),
  savedAt: z.number(),
  value: z.unknown(),
});
const draftV1 = z.extend(draftV0, { schemaVersion: z.literal(1) });

export type StoredOutboxItem = OutboxItem & { schemaVersion: typeof OUTBOX_SCHEMA_VERSION };
export type StoredDraft = z.infer<typeof draftV1>;

export type ReadResult<T> = { ok: true; value: T; migratedFrom?: number } | { ok: false; problem: string };

function versionOf(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return undefined;
  return "schemaVersion" in raw ? raw.schemaVersion : 0;
}

function describe(error: z.core.$ZodError) {
  return error.issues.map((issue) => `${issue.path.join(".") || "(record)"}: ${issue.message}`).join("; ");
}

/** Parses `raw` with the schema of its own version, then migrates it to the current one. */
function readVersioned<T>(
  raw: unknown,
  current: number,
  readers: Record<number, (raw: unknown) => ReadResult<T>>,
): ReadResult<T> {
  const version = versionOf(raw);
  if (typeof version !== "number" || !(version in readers)) {
    return {
      ok: false,
      problem:
        typeof version === "number" && version > current
          ? `written by a newer version of the portal (schema ${version})`
          : "not a record this portal knows",
    };
  }
  const result = readers[version]!(raw);
  return result.ok && version !== current ? { ...result, migratedFrom: version } : result;
}

function parseWith<S extends z.ZodMiniType, T>(schema: S, raw: unknown, migrate: (parsed: z.infer<S>) => T) {
  const parsed = z.safeParse(schema, raw);
  return parsed.success
    ? ({ ok: true, value: migrate(parsed.data) } as const)
    : ({ ok: false, problem: describe(parsed.error) } as const);
}

export function toStoredOutboxItem(item: OutboxItem): StoredOutboxItem {
  return { ...item, schemaVersion: OUTBOX_SCHEMA_VERSION };
}

type OutboxItemV1 = z.infer<typeof outboxItemV0>;

/** A version 0 or 1 item without files is the current item; one with files waits for its upgrade. */
function fromBlobVersion(item: OutboxItemV1): ReadResult<OutboxItem> {
  const { schemaVersion: _version, ...rest } = item as OutboxItemV1 & { schemaVersion?: number };
  const { body } = rest.request;
  if (body.type === "multipart" && body.files.length > 0) {
    return { ok: false, problem: "holds files of an older version of the portal, not yet read into bytes" };
  }
  const request = { ...rest.request, body: body.type === "json" ? body : { ...body, files: [] } };
  return { ok: true, value: { ...rest, request } };
}

/** Reads an outbox record of any known version as the current OutboxItem. */
export function readOutboxRecord(raw: unknown): ReadResult<OutboxItem> {
  const withoutVersion = ({ schemaVersion: _version, ...item }: StoredOutboxItem): OutboxItem => item;
  const olderVersion = (schema: typeof outboxItemV0 | typeof outboxItemV1) => (record: unknown) => {
    const parsed = z.safeParse(schema, record);
    return parsed.success
      ? fromBlobVersion(parsed.data)
      : ({ ok: false, problem: describe(parsed.error) } as const);
  };
  return readVersioned<OutboxItem>(raw, OUTBOX_SCHEMA_VERSION, {
    0: olderVersion(outboxItemV0),
    1: olderVersion(outboxItemV1),
    2: (record) =>
      parseWith(outboxItemV2, record, (item) => withoutVersion(item as unknown as StoredOutboxItem)),
    3: (record) =>
      parseWith(outboxItemV3, record, (item) => withoutVersion(item as unknown as StoredOutboxItem)),
    4: (record) =>
      parseWith(outboxItemV4, record, (item) => withoutVersion(item as unknown as StoredOutboxItem)),
    5: (record) => parseWith(outboxItemV5, record, (item) => withoutVersion(item as StoredOutboxItem)),
  });
}

/**
 * An item of version 0 or 1 whose body holds files, rewritten at the current version with each
 * file's Blob read into bytes; undefined when the record needs no upgrade (or is not one this
 * portal can read: it is then left as it is).
 */
export async function upgradeOutboxRecord(raw: unknown): Promise<StoredOutboxItem | undefined> {
  const version = versionOf(raw);
  if (version !== 0 && version !== 1) return undefined;
  const parsed = z.safeParse(version === 0 ? outboxItemV0 : outboxItemV1, raw);
  if (!parsed.success || parsed.data.request.body.type !== "multipart") return undefined;
  const { schemaVersion: _version, ...item } = parsed.data as OutboxItemV1 & { schemaVersion?: number };
  const body = parsed.data.request.body;
  const files = await Promise.all(
    body.files.map(async (file): Promise<StoredFile> => ({
      field: file.field,
      fileName: file.fileName,
      type: file.blob.type,
      bytes: await file.blob.arrayBuffer(),
    })),
  );
  return toStoredOutboxItem({ ...item, request: { ...item.request, body: { ...body, files } } });
}

export function toStoredDraft<T>(draft: { key: string; userId: number; savedAt: number; value: T }) {
  return { ...draft, schemaVersion: DRAFT_SCHEMA_VERSION };
}

/** Reads a draft record of any known version (the answers inside stay the caller's to check). */
export function readDraftRecord(raw: unknown): ReadResult<Omit<StoredDraft, "schemaVersion">> {
  return readVersioned(raw, DRAFT_SCHEMA_VERSION, {
    0: (record) => parseWith(draftV0, record, (draft) => draft),
    1: (record) => parseWith(draftV1, record, ({ schemaVersion: _version, ...draft }) => draft),
  });
}

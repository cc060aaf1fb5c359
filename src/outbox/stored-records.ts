/**
 * What the outbox and the drafts keep in IndexedDB outlives an app update: every stored record
 * carries a schemaVersion, is read with a zod parse, and an older shape is migrated as it is
 * read. A record that cannot be read (damaged, or written by a newer version of the app after a
 * rollback) is never dropped: the outbox leaves it in place and shows it on the review page, the
 * drafts move it aside, and both can be exported (listUnreadableRecords).
 *
 * zod/mini keeps these schemas small: the outbox is part of the app's first download.
 *
 * Versions:
 * - 0: the shapes before versioning (no schemaVersion field);
 * - 1: the same fields with schemaVersion: 1.
 */
import * as z from "zod/mini";
import type { OutboxItem } from "./outbox-item.ts";

export const OUTBOX_SCHEMA_VERSION = 1;
export const DRAFT_SCHEMA_VERSION = 1;

const blob = z.custom<Blob>((value) => typeof Blob !== "undefined" && value instanceof Blob);
const stringRecord = z.record(z.string(), z.string());

const outboxBody = z.discriminatedUnion("type", [
  z.object({ type: z.literal("json"), value: z.unknown() }),
  z.object({
    type: z.literal("multipart"),
    fields: stringRecord,
    files: z.array(z.object({ field: z.string(), blob, fileName: z.string() })),
  }),
]);

const outboxItemV0 = z.object({
  id: z.string().check(z.minLength(1)),
  kind: z.enum(["submission", "consent", "upload", "event"]),
  request: z.object({
    method: z.enum(["POST", "PUT", "PATCH"]),
    path: z.string(),
    query: z.optional(stringRecord),
    headers: z.optional(stringRecord),
    body: outboxBody,
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
});

const outboxItemV1 = z.extend(outboxItemV0, { schemaVersion: z.literal(1) });

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

/** Reads an outbox record of any known version as the current OutboxItem. */
export function readOutboxRecord(raw: unknown): ReadResult<OutboxItem> {
  const withoutVersion = ({ schemaVersion: _version, ...item }: StoredOutboxItem): OutboxItem => item;
  return readVersioned<OutboxItem>(raw, OUTBOX_SCHEMA_VERSION, {
    0: (record) => parseWith(outboxItemV0, record, (item) => item as OutboxItem),
    1: (record) => parseWith(outboxItemV1, record, (item) => withoutVersion(item as StoredOutboxItem)),
  });
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

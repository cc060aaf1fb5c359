/**
 * Stored records this version of the portal cannot read (src/outbox/stored-records.ts): the
 * viewer's own ones can be exported as JSON, files as base64, so that nothing is lost with them.
 */
// The problems name zod's issues in English (the service worker reads records too, but shows none).
import "../../../core/contracts/zod-messages.ts";
import { listUnreadableDrafts } from "../../outbox/drafts.ts";
import { listUnreadableItems, type UnreadableRecord } from "../../outbox/outbox-store.ts";
import { toPortableJson } from "../../outbox/portable-json.ts";

export const UNREADABLE_EXPORT_FORMAT = "clinro-unreadable-records";

export async function listUnreadableRecords(): Promise<UnreadableRecord[]> {
  return [...(await listUnreadableItems()), ...(await listUnreadableDrafts())];
}

/** The user a record names, when it names one. */
export function ownerOf(record: UnreadableRecord): number | undefined {
  const value = record.record as { userId?: unknown } | null;
  return typeof value === "object" && value !== null && typeof value.userId === "number"
    ? value.userId
    : undefined;
}

export async function exportUnreadableRecords(records: UnreadableRecord[], now = new Date()) {
  return {
    format: UNREADABLE_EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    records: await Promise.all(
      records.map(async (record) => ({ ...record, record: await toPortableJson(record.record) })),
    ),
  };
}

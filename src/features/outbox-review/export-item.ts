/**
 * Exporting a refused outbox item before it is discarded: a JSON file holding what was to be
 * sent (the request, JSON bodies as they are, files as base64 with their names and types) and
 * how sending went, so that nothing a clinician entered is lost with the discard.
 */
import type { OutboxBody, OutboxRequest } from "../../outbox/outbox-item.ts";
import type { ReviewItem } from "./visible-items.ts";
import { bytesToBase64 } from "../../outbox/portable-json.ts";

export const EXPORT_FORMAT = "clinro-outbox-item";
export const EXPORT_VERSION = 1;

export type ExportedBody =
  | { type: "json"; value: unknown }
  | { type: "empty" }
  | {
      type: "multipart";
      fields: Record<string, string>;
      files: { field: string; fileName: string; type: string; sizeBytes: number; base64: string }[];
    };

export type ExportedItem = {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  item: Omit<ReviewItem, "request" | "own" | "canExportAndDiscard" | "createdAt"> & { createdAt: string };
  request: Omit<OutboxRequest, "body"> & { body: ExportedBody };
};

function exportBody(body: OutboxBody): ExportedBody {
  if (body.type === "json") return { type: "json", value: body.value };
  if (body.type === "empty") return body;
  const files = body.files.map((file) => ({
    field: file.field,
    fileName: file.fileName,
    type: file.type,
    sizeBytes: file.bytes.byteLength,
    base64: bytesToBase64(file.bytes),
  }));
  return { type: "multipart", fields: body.fields, files };
}

/**
 * The export of one of the viewer's own items. Throws for an item without its request (another
 * user's item: the page never offers it).
 */
export async function exportOutboxItem(item: ReviewItem, now = new Date()): Promise<ExportedItem> {
  const { request, own: _own, canExportAndDiscard: _canExport, createdAt, ...metadata } = item;
  if (!request) throw new Error("Only the user who made an item can export it");
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    item: { ...metadata, createdAt: new Date(createdAt).toISOString() },
    request: { ...request, body: exportBody(request.body) },
  };
}

export function exportFileName(item: Pick<ReviewItem, "kind" | "id">) {
  return `clinro-outbox-${item.kind}-${item.id}.json`;
}

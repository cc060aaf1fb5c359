/**
 * Exporting a refused outbox item before it is discarded: a JSON file holding what was to be
 * sent (the request, JSON bodies as they are, files as base64 with their names and types) and
 * how sending went, so that nothing a clinician entered is lost with the discard.
 */
import type { OutboxBody, OutboxRequest } from "../../outbox/outbox-item.ts";
import type { ReviewItem } from "./visible-items.ts";
import { downloadBlob } from "../../widgets/download/download-blob.ts";

export const EXPORT_FORMAT = "clinro-outbox-item";
export const EXPORT_VERSION = 1;
/** btoa takes a string; build it in slices so a large file does not overflow the call stack. */
const BASE64_SLICE_BYTES = 0x8000;

export type ExportedBody =
  | { type: "json"; value: unknown }
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

export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let start = 0; start < bytes.length; start += BASE64_SLICE_BYTES) {
    binary += String.fromCharCode(...bytes.subarray(start, start + BASE64_SLICE_BYTES));
  }
  return btoa(binary);
}

async function exportBody(body: OutboxBody): Promise<ExportedBody> {
  if (body.type === "json") return { type: "json", value: body.value };
  const files = await Promise.all(
    body.files.map(async (file) => ({
      field: file.field,
      fileName: file.fileName,
      type: file.blob.type,
      sizeBytes: file.blob.size,
      base64: await blobToBase64(file.blob),
    })),
  );
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
    request: { ...request, body: await exportBody(request.body) },
  };
}

export function exportFileName(item: Pick<ReviewItem, "kind" | "id">) {
  return `clinro-outbox-${item.kind}-${item.id}.json`;
}

/** Hands a JSON file to the browser's download. */
export function downloadJson(fileName: string, value: unknown) {
  downloadBlob(fileName, new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
}

/**
 * What the device holds, as a JSON file can hold it: Blobs and bytes (photos, signatures) become
 * their type, size and base64, Maps their entries. Used for the exports that keep a clinician's
 * work when the device cannot store or send it (a refused item, an unreadable record, a store
 * that refuses a write).
 */

import { isArrayBuffer } from "./stored-records.ts";

/** btoa takes a string; build it in slices so a large file does not overflow the call stack. */
const BASE64_SLICE_BYTES = 0x8000;

export function bytesToBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (let start = 0; start < bytes.length; start += BASE64_SLICE_BYTES) {
    binary += String.fromCharCode(...bytes.subarray(start, start + BASE64_SLICE_BYTES));
  }
  return btoa(binary);
}

export async function blobToBase64(blob: Blob): Promise<string> {
  return bytesToBase64(await blob.arrayBuffer());
}

/** The value as JSON can hold it. */
export async function toPortableJson(value: unknown): Promise<unknown> {
  if (typeof Blob !== "undefined" && value instanceof Blob) {
    return { blob: { type: value.type, sizeBytes: value.size, base64: await blobToBase64(value) } };
  }
  if (isArrayBuffer(value)) {
    return { bytes: { sizeBytes: value.byteLength, base64: bytesToBase64(value) } };
  }
  if (value instanceof Map) return { map: await toPortableJson([...value.entries()]) };
  if (Array.isArray(value)) return Promise.all(value.map(toPortableJson));
  if (typeof value === "object" && value !== null) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, inner]) => [key, await toPortableJson(inner)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

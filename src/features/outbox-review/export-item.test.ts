import { describe, expect, it } from "vitest";
import { blobToBase64 } from "../../outbox/portable-json.ts";
import { exportFileName, exportOutboxItem } from "./export-item.ts";
import type { ReviewItem } from "./visible-items.ts";

const CREATED_AT = Date.UTC(2026, 10, 22, 9, 30);
const EXPORTED_AT = new Date(Date.UTC(2026, 10, 23, 8, 0));

function refused(overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id: "3f9c",
    kind: "submission",
    userId: 7,
    username: "me@example.org",
    studyId: 101,
    siteId: 11,
    participantId: 42,
    label: "PHQ-9",
    sizeBytes: 40,
    createdAt: CREATED_AT,
    attempts: 1,
    lastError: { kind: "http", status: 422, message: "answers do not match the form", at: CREATED_AT + 1 },
    state: "failed",
    nextAttemptAt: 0,
    dependsOn: [],
    status: "failed",
    own: true,
    canExportAndDiscard: true,
    request: {
      method: "POST",
      path: "/control/clinro/participant/42/instruments/9/submission",
      headers: { version: "010" },
      body: { type: "json", value: [{ answers: { q1: 2 } }] },
    },
    ...overrides,
  };
}

describe("exporting a refused item", () => {
  it("keeps a JSON body as it is, with the request and how sending went", async () => {
    const exported = await exportOutboxItem(refused(), EXPORTED_AT);
    expect(exported).toEqual({
      format: "clinro-outbox-item",
      version: 1,
      exportedAt: "2026-11-23T08:00:00.000Z",
      item: expect.objectContaining({
        id: "3f9c",
        kind: "submission",
        label: "PHQ-9",
        participantId: 42,
        attempts: 1,
        createdAt: "2026-11-22T09:30:00.000Z",
        lastError: expect.objectContaining({ status: 422 }),
      }),
      request: {
        method: "POST",
        path: "/control/clinro/participant/42/instruments/9/submission",
        headers: { version: "010" },
        body: { type: "json", value: [{ answers: { q1: 2 } }] },
      },
    });
    expect(exported.item).not.toHaveProperty("own");
  });

  it("turns each file of a multipart body into base64 with its name and type", async () => {
    const file = { bytes: new TextEncoder().encode("hello").buffer, type: "image/png" };
    const exported = await exportOutboxItem(
      refused({
        kind: "upload",
        request: {
          method: "POST",
          path: "/control/file/upload",
          body: {
            type: "multipart",
            fields: { file_name: "scan.png", platform: "clinro" },
            files: [{ field: "upload_file", fileName: "scan.png", ...file }],
          },
        },
      }),
      EXPORTED_AT,
    );
    expect(exported.request.body).toEqual({
      type: "multipart",
      fields: { file_name: "scan.png", platform: "clinro" },
      files: [
        { field: "upload_file", fileName: "scan.png", type: "image/png", sizeBytes: 5, base64: "aGVsbG8=" },
      ],
    });
  });

  it("refuses to export another user's item, whose payload the page never holds", async () => {
    await expect(exportOutboxItem(refused({ own: false, request: undefined }))).rejects.toThrow();
  });

  it("names the file after the item's kind and id", () => {
    expect(exportFileName({ kind: "upload", id: "abc" })).toBe("clinro-outbox-upload-abc.json");
  });
});

describe("blobToBase64", () => {
  it("encodes binary data larger than one slice", async () => {
    const bytes = new Uint8Array(40_000).map((_, index) => index % 256);
    const base64 = await blobToBase64(new Blob([bytes]));
    expect(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))).toEqual(bytes);
  });
});

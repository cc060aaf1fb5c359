import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { FILE_TYPE_REJECTED, IMAGE_TOO_LARGE } from "../../src/contracts/files.ts";
import { participants, uploadedFiles } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const UPLOAD = "/control/file/upload";
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0];
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function bytes(head: number[], size: number) {
  const buffer = new Uint8Array(size);
  buffer.set(head);
  for (let index = head.length; index < size; index++) buffer[index] = index % 251;
  return buffer;
}

/** A real multipart body, as a browser's FormData makes it. */
async function multipart(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; type: string; name: string },
) {
  const form = new FormData();
  if (file) form.set("upload_file", new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("content-type")!,
  };
}

describeOnEachDatabase("POST /control/file/upload", (api) => {
  const participantOf = async (studyId: number, siteId: number) => {
    const [row] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, studyId), eq(participants.siteId, siteId)))
      .limit(1);
    return row!.id;
  };
  const countFiles = async () => {
    const [row] = await api.db.select({ count: sql<number>`count(*)::int` }).from(uploadedFiles);
    return row!.count;
  };
  const upload = async (
    token: string,
    fields: Record<string, string>,
    file: { bytes: Uint8Array<ArrayBuffer>; type: string; name: string } | undefined,
    key: string = randomUUID(),
  ) => {
    const { body, contentType } = await multipart(fields, file);
    return api.request("POST", UPLOAD, {
      token,
      body,
      headers: { "content-type": contentType, "idempotency-key": key, version: "009" },
    });
  };
  const fieldsFor = (participantId: number, fileName = `101_${participantId}_7_q3_${Date.now()}.jpeg`) => ({
    file_name: fileName,
    platform: "clinro",
    module_name: "clinro",
    participant_id: String(participantId),
  });

  it("stores an accepted image under the data directory and records it", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const image = bytes(JPEG_HEAD, 50_000);
    const response = await upload(token, fieldsFor(participant, "photo-1.jpeg"), {
      bytes: image,
      type: "image/jpeg",
      name: "blob",
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ file_name: "photo-1.jpeg", size: 50_000 });
    const [row] = await api.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, answer.id));
    expect(row).toMatchObject({
      participantId: participant,
      moduleName: "clinro",
      contentType: "image/jpeg",
    });
    const stored = await readFile(path.join(api.dataDir, "files", String(participant), row!.storedName));
    expect(Buffer.compare(stored, Buffer.from(image))).toBe(0);
  });

  it("stores one file when the same upload is sent twice with one key", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1012);
    const file = { bytes: bytes(PNG_HEAD, 10_000), type: "image/png", name: "x.png" };
    const key = randomUUID();
    const before = await countFiles();
    const first = await upload(token, fieldsFor(participant, "scan.png"), file, key);
    const second = await upload(token, fieldsFor(participant, "scan.png"), file, key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await countFiles()).toBe(before + 1);
    expect(await readdir(path.join(api.dataDir, "files", String(participant)))).toHaveLength(1);
  });

  it("answers 422 when a key is reused for other bytes", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(103, 1031);
    const key = randomUUID();
    await upload(
      token,
      fieldsFor(participant, "a.png"),
      { bytes: bytes(PNG_HEAD, 900), type: "image/png", name: "a" },
      key,
    );
    const before = await countFiles();
    const reused = await upload(
      token,
      fieldsFor(participant, "a.png"),
      { bytes: bytes(PNG_HEAD, 901), type: "image/png", name: "a" },
      key,
    );
    expect(reused.statusCode).toBe(422);
    expect(await countFiles()).toBe(before);
  });

  it("keeps one file and one record when uploads with one key arrive at the same time", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(102, 1021);
    const file = { bytes: bytes(JPEG_HEAD, 20_000), type: "image/jpeg", name: "c.jpeg" };
    const key = randomUUID();
    const before = await countFiles();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => upload(token, fieldsFor(participant, "c.jpeg"), file, key)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(5).fill(200));
    expect(await countFiles()).toBe(before + 1);
    expect(await readdir(path.join(api.dataDir, "files", String(participant)))).toHaveLength(1);
  });

  it.each([
    ["a PDF", "consent.pdf", "application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
    [
      "a Word document",
      "notes.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      [0x50, 0x4b, 0x03, 0x04],
    ],
    [
      "an old Word document",
      "notes.doc",
      "application/msword",
      [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    ],
    [
      "an SVG signature",
      "signature.svg",
      "image/svg+xml",
      [...new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ],
  ])("accepts %s", async (_what, fileName, type, head) => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await upload(
      token,
      { ...fieldsFor(participant, fileName), module_name: "consent" },
      {
        bytes: bytes(head, head.length + 100),
        type,
        name: fileName,
      },
    );
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ["an executable renamed to .pdf", "x.pdf", "application/pdf", [0x4d, 0x5a, 0x90, 0x00]],
    ["a GIF", "x.gif", "image/gif", [0x47, 0x49, 0x46, 0x38]],
    ["a JPEG sent as PNG", "x.png", "image/png", JPEG_HEAD],
    ["a CSV", "x.csv", "text/csv", [0x61, 0x2c, 0x62]],
  ])("refuses %s with the spec's message and stores nothing", async (_what, fileName, type, head) => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countFiles();
    const response = await upload(token, fieldsFor(participant, fileName), {
      bytes: bytes(head, 500),
      type,
      name: fileName,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe(FILE_TYPE_REJECTED);
    expect(await countFiles()).toBe(before);
  });

  it("refuses an image over 2.5 MB with the spec's message", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countFiles();
    const response = await upload(token, fieldsFor(participant, "big.jpeg"), {
      bytes: bytes(JPEG_HEAD, 2.5 * 1024 * 1024 + 1),
      type: "image/jpeg",
      name: "big.jpeg",
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(IMAGE_TOO_LARGE);
    expect(await countFiles()).toBe(before);
  });

  it("answers 400 naming the field when a field is missing or wrong", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const file = { bytes: bytes(JPEG_HEAD, 100), type: "image/jpeg", name: "a.jpeg" };
    const noModule = await upload(token, { ...fieldsFor(participant), module_name: "other" }, file);
    expect(noModule.statusCode).toBe(400);
    expect(noModule.json().message).toContain("module_name");
    const badName = await upload(
      token,
      { ...fieldsFor(participant), file_name: "../../etc/passwd.jpeg" },
      file,
    );
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toContain("file_name");
    const noFile = await upload(token, fieldsFor(participant), undefined);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toContain("upload_file");
  });

  it("answers 403 for a participant outside the user's studies and sites", async () => {
    const token = await api.signIn("staff3@demo.test");
    const participant = await participantOf(102, 1021);
    const before = await countFiles();
    const response = await upload(token, fieldsFor(participant), {
      bytes: bytes(JPEG_HEAD, 100),
      type: "image/jpeg",
      name: "a.jpeg",
    });
    expect(response.statusCode).toBe(403);
    expect(await countFiles()).toBe(before);
  });

  it("answers 415 to a JSON body", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const response = await api.request("POST", UPLOAD, { token, body: { file_name: "a.jpeg" } });
    expect(response.statusCode).toBe(415);
  });
});

import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { FILE_TYPE_REJECTED, IMAGE_TOO_LARGE } from "../../core/contracts/files.ts";
import { importFilesFromDisk } from "../../server/files/file-store.ts";
import {
  auditLog,
  participants,
  uploadedFileContents,
  uploadedFiles,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { testImage } from "../support/test-images.ts";

const UPLOAD = "/control/file/upload";
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0];

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
  let jpeg: Uint8Array<ArrayBuffer>;
  let png: Uint8Array<ArrayBuffer>;
  beforeAll(async () => {
    jpeg = new Uint8Array(await testImage("jpeg", 200, 150));
    png = new Uint8Array(await testImage("png", 80, 60));
  });
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
  const countContents = async () => {
    const [row] = await api.db.select({ count: sql<number>`count(*)::int` }).from(uploadedFileContents);
    return row!.count;
  };
  const contentOf = async (fileId: number) => {
    const [row] = await api.db
      .select()
      .from(uploadedFileContents)
      .where(eq(uploadedFileContents.fileId, fileId));
    return row;
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

  it("stores an accepted image in the database (record and bytes), and nothing on disk", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await upload(token, fieldsFor(participant, "photo-1.jpeg"), {
      bytes: jpeg,
      type: "image/jpeg",
      name: "blob",
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ file_name: "photo-1.jpeg", size: jpeg.length });
    const [row] = await api.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, answer.id));
    expect(row).toMatchObject({
      participantId: participant,
      moduleName: "clinro",
      contentType: "image/jpeg",
      sizeBytes: jpeg.length,
    });
    const stored = await contentOf(answer.id);
    expect(Buffer.compare(Buffer.from(stored!.content), Buffer.from(jpeg))).toBe(0);
    expect(stored!.sha256).toBe(createHash("sha256").update(jpeg).digest("hex"));
    expect(await readdir(path.join(api.dataDir, "files")).catch(() => [])).toEqual([]);
  });

  it("audits the bytes by their SHA-256 and size, never the bytes themselves", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await upload(token, fieldsFor(participant, "audited.png"), {
      bytes: png,
      type: "image/png",
      name: "audited.png",
    });
    expect(response.statusCode).toBe(200);
    const fileId = response.json().id as number;
    const [audit] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tableName, "uploaded_file_contents"), eq(auditLog.action, "insert")))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const [coordinator] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    expect(audit).toMatchObject({
      actorUserId: coordinator!.id,
      rowKey: { file_id: fileId },
      newValues: {
        file_id: fileId,
        sha256: createHash("sha256").update(png).digest("hex"),
        size_bytes: png.length,
      },
    });
    expect(Object.keys(audit!.newValues!).sort()).toEqual(["file_id", "sha256", "size_bytes"]);
    // The whole audit row is smaller than the image it records.
    expect(JSON.stringify(audit).length).toBeLessThan(png.length);
  });

  it("stores one file when the same upload is sent twice with one key", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1012);
    const file = { bytes: png, type: "image/png", name: "x.png" };
    const key = randomUUID();
    const before = await countFiles();
    const contentsBefore = await countContents();
    const first = await upload(token, fieldsFor(participant, "scan.png"), file, key);
    const second = await upload(token, fieldsFor(participant, "scan.png"), file, key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    expect(await countFiles()).toBe(before + 1);
    expect(await countContents()).toBe(contentsBefore + 1);
  });

  it("answers 422 when a key is reused for other bytes", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(103, 1031);
    const key = randomUUID();
    await upload(token, fieldsFor(participant, "a.png"), { bytes: png, type: "image/png", name: "a" }, key);
    const before = await countFiles();
    const reused = await upload(
      token,
      fieldsFor(participant, "a.png"),
      { bytes: new Uint8Array(await testImage("png", 80, 60, 1)), type: "image/png", name: "a" },
      key,
    );
    expect(reused.statusCode).toBe(422);
    expect(await countFiles()).toBe(before);
  });

  it("keeps one file and one record when uploads with one key arrive at the same time", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(102, 1021);
    const file = { bytes: jpeg, type: "image/jpeg", name: "c.jpeg" };
    const key = randomUUID();
    const before = await countFiles();
    const contentsBefore = await countContents();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => upload(token, fieldsFor(participant, "c.jpeg"), file, key)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect(await countFiles()).toBe(before + 1);
    expect(await countContents()).toBe(contentsBefore + 1);
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
      [
        ...new TextEncoder().encode(
          '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="30"><path d="M0 0 L100 30" stroke="#000"/></svg>',
        ),
      ],
    ],
  ])("accepts %s", async (_what, fileName, type, head) => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const response = await upload(
      token,
      { ...fieldsFor(participant, fileName), module_name: "consent" },
      {
        // Documents are checked by their signature; an SVG is parsed whole, so it is sent alone.
        bytes: type === "image/svg+xml" ? new Uint8Array(head) : bytes(head, head.length + 100),
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
    ["a text file", "x.txt", "text/plain", [0x61, 0x2c, 0x62]],
    ["an executable renamed to .csv", "x.csv", "text/csv", [0x4d, 0x5a, 0x90, 0x00]],
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

  it.each([["text/csv"], ["application/vnd.ms-excel"], ["text/plain"], ["application/octet-stream"]])(
    "accepts a CSV file the browser calls %s, and stores it as text/csv",
    async (type) => {
      const token = await api.signIn("coordinator@demo.test");
      const participant = await participantOf(101, 1011);
      const csv = new TextEncoder().encode(
        '\ufeffsubject_id,visit,score\r\nMDD-001,1,12\r\nMDD-002,1,"7,5"\r\n',
      );
      const response = await upload(
        token,
        { ...fieldsFor(participant, "scores.csv"), module_name: "clinro" },
        { bytes: csv, type, name: "scores.csv" },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ file_name: "scores.csv", size: csv.length });
      const [row] = await api.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, response.json().id));
      expect(row).toMatchObject({ contentType: "text/csv", sizeBytes: csv.length });
      const stored = await contentOf(response.json().id);
      expect(Buffer.compare(Buffer.from(stored!.content), Buffer.from(csv))).toBe(0);
    },
  );

  it("refuses a CSV file that is not text, or holds a page, with a 415 that says why", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const participant = await participantOf(101, 1011);
    const before = await countFiles();
    const binary = await upload(token, fieldsFor(participant, "data.csv"), {
      bytes: new Uint8Array([0x61, 0x2c, 0x62, 0x0d, 0x0a, 0x01, 0x02, 0x03]),
      type: "text/csv",
      name: "data.csv",
    });
    expect(binary.statusCode).toBe(415);
    expect(binary.json()).toMatchObject({ code: "file_content_rejected" });
    expect(binary.json().message).toMatch(/^The CSV file is not text/);
    const page = await upload(token, fieldsFor(participant, "data.csv"), {
      bytes: new TextEncoder().encode("a,b\r\n<html><body>1</body></html>,2\r\n"),
      type: "text/csv",
      name: "data.csv",
    });
    expect(page.statusCode).toBe(415);
    expect(page.json().message).toMatch(/HTML or script/);
    const wrongType = await upload(token, fieldsFor(participant, "data.csv"), {
      bytes: new TextEncoder().encode("a,b\r\n1,2\r\n"),
      type: "image/png",
      name: "data.csv",
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().message).toBe(FILE_TYPE_REJECTED);
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

  it.each([
    [
      "a JPEG that is also an HTML page",
      "poly.jpeg",
      "image/jpeg",
      async () => Buffer.concat([jpeg, Buffer.from("<html><body><script>alert(1)</script>")]),
      /The JPEG file also holds HTML or script \("<html>"\)/,
    ],
    [
      "a JPEG head on bytes that are no image",
      "fake.jpeg",
      "image/jpeg",
      async () => bytes(JPEG_HEAD, 5000),
      /^The file is not a valid JPEG image: it could not be decoded\.$/,
    ],
    [
      "a PNG cut short",
      "cut.png",
      "image/png",
      async () => Buffer.concat([png.subarray(0, 40), png.subarray(png.length - 12)]),
      /^The file is not a valid PNG image: it could not be decoded\.$/,
    ],
    [
      "an SVG with a script",
      "sig.svg",
      "image/svg+xml",
      async () =>
        new TextEncoder().encode(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/control/users")</script></svg>',
        ),
      /^The SVG file holds a <script> element\. SVG images may not hold scripts/,
    ],
    [
      "an SVG with an event handler",
      "sig.svg",
      "image/svg+xml",
      async () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      /an event handler \(onload\)/,
    ],
    [
      "an SVG loading an external image",
      "sig.svg",
      "image/svg+xml",
      async () =>
        new TextEncoder().encode(
          '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/p.png"/></svg>',
        ),
      /a link to another file or page/,
    ],
  ])(
    "refuses %s with a 415 that says why, and stores nothing",
    async (_what, fileName, type, make, reason) => {
      const token = await api.signIn("coordinator@demo.test");
      const participant = await participantOf(101, 1011);
      const before = await countFiles();
      const contentsBefore = await countContents();
      const response = await upload(
        token,
        { ...fieldsFor(participant, fileName), module_name: "consent" },
        {
          bytes: new Uint8Array(await make()),
          type,
          name: fileName,
        },
      );
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ code: "file_content_rejected" });
      expect(response.json().message).toMatch(reason);
      expect(await countFiles()).toBe(before);
      expect(await countContents()).toBe(contentsBefore);
    },
  );

  it("copies files kept on disk before 0013 into the database, once", async () => {
    const participant = await participantOf(103, 1031);
    const [coordinator] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const storedName = `${randomUUID()}.png`;
    const [legacy] = await api.db
      .insert(uploadedFiles)
      .values({
        userId: coordinator!.id,
        participantId: participant,
        moduleName: "consent",
        platform: "clinro",
        fileName: `legacy-${Date.now()}.png`,
        storedName,
        contentType: "image/png",
        sizeBytes: png.length,
      })
      .returning({ id: uploadedFiles.id });
    const folder = path.join(api.dataDir, "files", String(participant));
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, storedName), png);

    const first = await importFilesFromDisk(api.db, api.dataDir);
    expect(first.imported).toBe(1);
    expect(first.missing).toEqual([]);
    const stored = await contentOf(legacy!.id);
    expect(Buffer.compare(Buffer.from(stored!.content), Buffer.from(png))).toBe(0);
    expect(await importFilesFromDisk(api.db, api.dataDir)).toEqual({ imported: 0, missing: [] });
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

/**
 * Where uploaded files' bytes are kept: the database (uploaded_file_contents, migration 0013),
 * whichever engine, so that every server of one PostgreSQL reads what another stored, and a
 * backup of the database holds the files too. Nothing is written to disk.
 *
 * Before 0013 the bytes were kept under DATA_DIR/files/<participant>/<stored name>:
 * importFilesFromDisk copies such files in at start-up (only for records that have no content
 * yet, so it costs one query once done). The files on disk are left where they are.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, inArray, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { uploadedFileContents, uploadedFiles } from "../db/schema.ts";

type Executor = Database | Transaction;

export function sha256Hex(bytes: Uint8Array) {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Stores the bytes of the uploaded_files row `fileId` (in the caller's transaction). */
export async function saveFileContent(db: Executor, fileId: number, bytes: Uint8Array) {
  await db.insert(uploadedFileContents).values({ fileId, content: bytes, sha256: sha256Hex(bytes) });
}

/** The bytes of these uploaded files, by id; a file without content is absent from the map. */
export async function readFileContents(db: Executor, fileIds: readonly number[]) {
  if (fileIds.length === 0) return new Map<number, Uint8Array>();
  const rows = await db
    .select({ fileId: uploadedFileContents.fileId, content: uploadedFileContents.content })
    .from(uploadedFileContents)
    .where(inArray(uploadedFileContents.fileId, [...fileIds]));
  return new Map(rows.map((row) => [row.fileId, row.content]));
}

export type DiskImport = { imported: number; missing: { fileId: number; path: string }[] };

/**
 * Copies into the database the bytes of every uploaded file recorded without content, from
 * DATA_DIR/files where the server kept them before migration 0013. A file that is not on this
 * server's disk stays without content (listed in `missing`): another server may still hold it
 * and import it when it starts.
 */
export async function importFilesFromDisk(db: Database, dataDir: string): Promise<DiskImport> {
  const pending = await db
    .select({
      id: uploadedFiles.id,
      participantId: uploadedFiles.participantId,
      storedName: uploadedFiles.storedName,
    })
    .from(uploadedFiles)
    .leftJoin(uploadedFileContents, eq(uploadedFileContents.fileId, uploadedFiles.id))
    .where(isNull(uploadedFileContents.fileId));
  const outcome: DiskImport = { imported: 0, missing: [] };
  for (const file of pending) {
    // Stored names are the server's own (a UUID and an extension); never a path from a client.
    const filePath = path.join(dataDir, "files", String(file.participantId), path.basename(file.storedName));
    let bytes: Buffer;
    try {
      bytes = await readFile(filePath);
    } catch {
      outcome.missing.push({ fileId: file.id, path: filePath });
      continue;
    }
    // Another server starting at the same time may import the same file: the first one wins.
    const inserted = await db
      .insert(uploadedFileContents)
      .values({ fileId: file.id, content: new Uint8Array(bytes), sha256: sha256Hex(bytes) })
      .onConflictDoNothing()
      .returning({ fileId: uploadedFileContents.fileId });
    outcome.imported += inserted.length;
  }
  return outcome;
}

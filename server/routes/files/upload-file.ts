/**
 * POST /control/file/upload (multipart: upload_file, file_name, platform, module_name,
 * participant_id). JPEG, PNG, SVG, PDF and Word only; images 2.5 MB at most. The bytes are kept
 * under DATA_DIR/files/<participant>/, the record in uploaded_files, once per Idempotency-Key.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  ACCEPTED_FILE_TYPES,
  FILE_TYPE_REJECTED,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  fileExtension,
  fileUploadFields,
  type FileUploadResponse,
} from "../../../src/contracts/files.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { uploadedFiles } from "../../db/schema.ts";
import { matchesSignature } from "../../files/file-signature.ts";
import { HttpError, parseInput } from "../../http/errors.ts";
import { hashRequest, idempotencyKeyOf, runIdempotentWrite } from "../../idempotency/idempotent-write.ts";
import { findAccessibleParticipant } from "../../participants/participant-access.ts";

const PATH = "/control/file/upload";

async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) {
    throw new HttpError(415, "The upload must be multipart/form-data.", "not_multipart");
  }
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; contentType: string } | undefined;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      if (part.fieldname !== "upload_file" || file) {
        await part.toBuffer();
        throw new HttpError(400, "Send exactly one file, as upload_file.", "invalid_request");
      }
      file = { bytes: await part.toBuffer(), contentType: part.mimetype };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  if (!file) throw new HttpError(400, "upload_file is required.", "invalid_request");
  return { fields, file };
}

export function fileRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post(PATH, async (request, reply) => {
    const { user } = requireSession(request);
    const key = idempotencyKeyOf(request);
    const { fields, file } = await readUpload(request);
    const upload = parseInput(fileUploadFields, fields);

    const extension = fileExtension(upload.file_name);
    const accepted = ACCEPTED_FILE_TYPES[extension as keyof typeof ACCEPTED_FILE_TYPES];
    if (
      !accepted ||
      !(accepted.contentTypes as readonly string[]).includes(file.contentType) ||
      !matchesSignature(extension, file.bytes)
    ) {
      throw new HttpError(415, FILE_TYPE_REJECTED, "file_type_rejected");
    }
    if (accepted.image && file.bytes.length > IMAGE_MAX_BYTES) {
      throw new HttpError(413, IMAGE_TOO_LARGE, "image_too_large");
    }
    const participant = await findAccessibleParticipant(ctx.db, user.id, upload.participant_id);
    if (!participant) {
      throw new HttpError(403, "You do not have access to this participant.", "participant_forbidden");
    }

    const directory = path.join(ctx.dataDir, "files", String(participant.id));
    const storedName = `${randomUUID()}.${extension}`;
    const storedPath = path.join(directory, storedName);
    let written = false;
    const result = await runIdempotentWrite(ctx.db, {
      userId: user.id,
      key,
      method: "POST",
      path: PATH,
      requestHash: hashRequest([JSON.stringify(upload), file.contentType, file.bytes]),
      write: async (tx) => {
        await mkdir(directory, { recursive: true });
        await writeFile(storedPath, file.bytes);
        written = true;
        const [row] = await tx
          .insert(uploadedFiles)
          .values({
            userId: user.id,
            participantId: participant.id,
            moduleName: upload.module_name,
            platform: upload.platform,
            fileName: upload.file_name,
            storedName,
            contentType: file.contentType,
            sizeBytes: file.bytes.length,
          })
          .returning({ id: uploadedFiles.id });
        const body: FileUploadResponse = {
          id: row!.id,
          file_name: upload.file_name,
          size: file.bytes.length,
        };
        return { statusCode: 200, body };
      },
      afterRollback: async () => {
        if (written) await rm(storedPath, { force: true });
      },
    }).catch(async (error: unknown) => {
      if (written) await rm(storedPath, { force: true });
      throw error;
    });
    return reply
      .code(result.statusCode)
      .header("idempotent-replayed", String(result.replayed))
      .send(result.body);
  });
}

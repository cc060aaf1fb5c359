/**
 * POST /control/file/upload (multipart: upload_file, file_name, platform, module_name,
 * participant_id). JPEG, PNG, SVG, PDF, Word and CSV only (a CSV is stored as text/csv, whatever
 * type the browser named); images 2.5 MB at most; each checked as a whole (check-upload-content.ts).
 * The record (uploaded_files) and the bytes (uploaded_file_contents) are written in one
 * transaction, once per Idempotency-Key; nothing touches the disk, so every server of one database
 * reads the file.
 */
import { uploadFileCall } from "../../../core/contracts/calls/file-calls.ts";
import { registerCall } from "../../http/register-call.ts";
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  ACCEPTED_FILE_TYPES,
  CSV_CONTENT_TYPE,
  FILE_TYPE_REJECTED,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  fileExtension,
  fileUploadFields,
  type FileUploadResponse,
} from "../../../core/contracts/files.ts";
import { requireSession } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { uploadedFiles } from "../../db/schema.ts";
import { checkUploadContent } from "../../files/check-upload-content.ts";
import { matchesSignature } from "../../files/file-signature.ts";
import { saveFileContent } from "../../files/file-store.ts";
import { HttpError, parseInput } from "../../http/errors.ts";
import { readMultipartFields } from "../../http/input-bounds.ts";
import { hashRequest, idempotencyKeyOf, runIdempotentWrite } from "../../idempotency/idempotent-write.ts";
import { findAccessibleParticipant } from "../../participants/participant-access.ts";

const PATH = "/control/file/upload";

async function readUpload(request: FastifyRequest) {
  let file: { bytes: Buffer; contentType: string } | undefined;
  // Fields are checked as safe text there; a body without a boundary or cut short is a 400.
  const fields = await readMultipartFields(request, async (part) => {
    if (part.fieldname !== "upload_file" || file) {
      await part.toBuffer();
      throw new HttpError(400, "Send exactly one file, as upload_file.", "invalid_request");
    }
    file = { bytes: await part.toBuffer(), contentType: part.mimetype };
  });
  if (!file) throw new HttpError(400, "upload_file is required.", "invalid_request");
  return { fields, file };
}

export function fileRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, uploadFileCall, async (request, reply) => {
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
    const content = await checkUploadContent(extension, file.bytes);
    if (!content.ok) throw new HttpError(415, content.reason, "file_content_rejected");

    const storedName = `${randomUUID()}.${extension}`;
    const result = await runIdempotentWrite(ctx.db, {
      userId: user.id,
      key,
      method: "POST",
      path: PATH,
      requestHash: hashRequest([JSON.stringify(upload), file.contentType, file.bytes]),
      write: async (tx) => {
        const [row] = await tx
          .insert(uploadedFiles)
          .values({
            userId: user.id,
            participantId: participant.id,
            moduleName: upload.module_name,
            platform: upload.platform,
            fileName: upload.file_name,
            storedName,
            contentType: extension === "csv" ? CSV_CONTENT_TYPE : file.contentType,
            sizeBytes: file.bytes.length,
          })
          .returning({ id: uploadedFiles.id });
        await saveFileContent(tx, row!.id, file.bytes);
        const body: FileUploadResponse = {
          id: row!.id,
          file_name: upload.file_name,
          size: file.bytes.length,
        };
        return { statusCode: 200, body };
      },
    });
    return reply
      .code(result.statusCode)
      .header("idempotent-replayed", String(result.replayed))
      .send(result.body);
  });
}

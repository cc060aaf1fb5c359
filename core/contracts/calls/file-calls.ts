/**
 * File uploads (photos, signatures, documents): sent through the outbox.
 */
import { errorBody } from "../errors.ts";
import { fileUploadFields, fileUploadResponse, UPLOAD_HEADER_VERSION } from "../files.ts";
import { defineCall } from "../http/define-call.ts";
import { IDEMPOTENT_REFUSALS } from "./common-answers.ts";

export const uploadFileCall = defineCall({
  operationId: "uploadFile",
  tag: "Files",
  scope: "participant",
  headerVersion: UPLOAD_HEADER_VERSION,
  method: "POST",
  path: "/control/file/upload",
  summary: "Upload a file (photo, signature, document) for a participant",
  body: { multipart: fileUploadFields, files: ["upload_file"] },
  idempotent: true,
  answers: { 200: fileUploadResponse, ...IDEMPOTENT_REFUSALS, 413: errorBody, 415: errorBody },
});

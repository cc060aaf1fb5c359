import * as z from "zod/mini";
import { rowId } from "./input-bounds.ts";
import { PLATFORM } from "./roles.ts";

/** The `version` header of the file upload call (spec 02 section 7). */
export const UPLOAD_HEADER_VERSION = "009";

/** The module an uploaded file belongs to (module_name): a consent or a clinician instrument. */
export const FILE_MODULE = { consent: "consent", clinician: "clinro" } as const;

/** Images are limited to 2.5 MB (spec 02 sections 5 and 9). */
export const IMAGE_MAX_BYTES = 2.5 * 1024 * 1024;
/** Documents (PDF, Word) may be larger; this caps what one upload may hold. */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Accepted uploads: JPEG, PNG, SVG, PDF, Word and CSV (spec 02 section 5 lists CSV for the file
 * upload widget), by extension and content type. Browsers name a CSV file's type differently:
 * text/csv on most, application/vnd.ms-excel on Windows with Excel installed, text/plain or
 * nothing known (application/octet-stream) elsewhere; its content is checked as text instead.
 */
export const ACCEPTED_FILE_TYPES = {
  jpg: { contentTypes: ["image/jpeg"], image: true },
  jpeg: { contentTypes: ["image/jpeg"], image: true },
  png: { contentTypes: ["image/png"], image: true },
  svg: { contentTypes: ["image/svg+xml"], image: true },
  pdf: { contentTypes: ["application/pdf"], image: false },
  doc: { contentTypes: ["application/msword"], image: false },
  docx: {
    contentTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    image: false,
  },
  csv: {
    contentTypes: [
      "text/csv",
      "application/csv",
      "text/comma-separated-values",
      "text/x-csv",
      "application/vnd.ms-excel",
      "text/plain",
      "application/octet-stream",
    ],
    image: false,
  },
} as const;

/** The content type a CSV upload is stored under, whatever name the browser gave it. */
export const CSV_CONTENT_TYPE = "text/csv";

export function fileExtension(fileName: string) {
  const dot = fileName.lastIndexOf(".");
  return dot < 0 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/** The text fields of POST /control/file/upload (multipart, with the file as upload_file). */
export const fileUploadFields = z.object({
  file_name: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(200),
      z.regex(/^[A-Za-z0-9_.-]+$/, "file_name may hold only letters, digits, _ . and -"),
    ),
  platform: z.literal(PLATFORM),
  module_name: z.enum([FILE_MODULE.consent, FILE_MODULE.clinician]),
  participant_id: rowId("participant_id"),
});
export type FileUploadFields = z.infer<typeof fileUploadFields>;

export const fileUploadResponse = z.object({
  id: z.number().check(z.int()),
  file_name: z.string(),
  size: z.number().check(z.int()),
});
export type FileUploadResponse = z.infer<typeof fileUploadResponse>;

/** Rejection texts of spec 02 section 5; clients show them under these codes. */
export const FILE_TYPE_REJECTED = "Oh no! We can't take file types other than PDF, Word files, JPEG, or PNG.";
export const IMAGE_TOO_LARGE = "Your image exceeded 2.5 mb. Please reduce the file size.";

/**
 * The file upload's type check (spec 02 section 5): the caller gives the accepted extensions;
 * a file whose extension (or, without one, whose type) is not in the list is refused with one of
 * the spec's two texts: the documents-and-images text when the list is made of PDF, Word, JPEG
 * and PNG types only (the upload the text names), the general one otherwise. Plain functions:
 * the component turns the code into text.
 */

/** The documents and images the first rejection text names. */
export const DOCUMENT_AND_IMAGE_EXTENSIONS = ["pdf", "doc", "docx", "jpg", "jpeg", "png"] as const;
/** The signature upload's images. */
export const SIGNATURE_IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "svg"] as const;

/** Media types of the listed extensions, for a file whose name has no extension. */
const MEDIA_TYPE_EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "text/csv": "csv",
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/svg+xml": "svg",
};

export type FileTypeRejection = "not_document_or_image" | "unsupported_type";

function normalise(extension: string): string {
  return extension.trim().toLowerCase().replace(/^\./, "");
}

/** The extension of a file: from its name, else from its media type; "" when neither tells. */
export function fileExtension(file: { name: string; type: string }): string {
  const dot = file.name.lastIndexOf(".");
  if (dot > 0 && dot < file.name.length - 1) return normalise(file.name.slice(dot + 1));
  return MEDIA_TYPE_EXTENSIONS[file.type] ?? "";
}

/** The accept attribute of the file input for the list: ".pdf,.docx". */
export function acceptAttribute(accepted: readonly string[]): string {
  return accepted.map((extension) => `.${normalise(extension)}`).join(",");
}

/** Null when the file's type is in the caller's list; otherwise which rejection text to show. */
export function checkFileType(
  file: { name: string; type: string },
  accepted: readonly string[],
): FileTypeRejection | null {
  const list = accepted.map(normalise);
  const extension = fileExtension(file);
  if (extension && list.includes(extension)) return null;
  const documentsOnly = list.every((entry) =>
    (DOCUMENT_AND_IMAGE_EXTENSIONS as readonly string[]).includes(entry),
  );
  return documentsOnly ? "not_document_or_image" : "unsupported_type";
}

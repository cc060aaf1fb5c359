import { describe, expect, it } from "vitest";
import {
  acceptAttribute,
  checkFileType,
  DOCUMENT_AND_IMAGE_EXTENSIONS,
  fileExtension,
  SIGNATURE_IMAGE_EXTENSIONS,
} from "./file-types.ts";

const file = (name: string, type = "") => ({ name, type });

describe("file upload types", () => {
  it("accepts a file whose extension is in the caller's list, in any case", () => {
    expect(checkFileType(file("report.PDF"), DOCUMENT_AND_IMAGE_EXTENSIONS)).toBeNull();
    expect(checkFileType(file("notes.docx"), [".docx", "pdf"])).toBeNull();
    expect(checkFileType(file("sign.svg"), SIGNATURE_IMAGE_EXTENSIONS)).toBeNull();
  });

  it("refuses other documents with the PDF, Word, JPEG or PNG text when the list is those types", () => {
    expect(checkFileType(file("sheet.xlsx"), DOCUMENT_AND_IMAGE_EXTENSIONS)).toBe("not_document_or_image");
    expect(checkFileType(file("data.csv"), ["pdf", "docx"])).toBe("not_document_or_image");
  });

  it("refuses with the general text when the list holds other types", () => {
    expect(checkFileType(file("photo.gif"), SIGNATURE_IMAGE_EXTENSIONS)).toBe("unsupported_type");
    expect(checkFileType(file("a.pdf"), ["csv"])).toBe("unsupported_type");
  });

  it("reads the type of a file without an extension from its media type", () => {
    expect(fileExtension(file("scan", "application/pdf"))).toBe("pdf");
    expect(checkFileType(file("scan", "application/pdf"), ["pdf"])).toBeNull();
    expect(checkFileType(file("blob", "application/zip"), ["pdf"])).toBe("not_document_or_image");
  });

  it("does not take a name ending in a dot, or a hidden file's name, as an extension", () => {
    expect(fileExtension(file("report."))).toBe("");
    expect(fileExtension(file(".pdf"))).toBe("");
  });

  it("builds the input's accept attribute from the list", () => {
    expect(acceptAttribute(["pdf", ".DOCX"])).toBe(".pdf,.docx");
  });
});

/**
 * Whether a file's first bytes match its claimed type, so a renamed executable is not stored
 * as a "PDF".
 */
const startsWith = (bytes: Uint8Array, signature: number[]) =>
  signature.every((value, index) => bytes[index] === value);

export function matchesSignature(extension: string, bytes: Uint8Array): boolean {
  switch (extension) {
    case "jpg":
    case "jpeg":
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case "png":
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "pdf":
      return startsWith(bytes, [0x25, 0x50, 0x44, 0x46]);
    case "doc":
      return startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    case "docx":
      return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);
    case "csv":
      // No signature: text, so no NUL byte at the start (UTF-16 and binary files have them).
      return bytes.length > 0 && !bytes.subarray(0, 1024).includes(0);
    case "svg": {
      const head = new TextDecoder().decode(bytes.subarray(0, 1024)).toLowerCase();
      return head.includes("<svg");
    }
    default:
      return false;
  }
}

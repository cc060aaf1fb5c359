/**
 * A small PNG of a drawn signature (a dark wave on white), made here so tests need no binary
 * fixture: the bytes a drawn signature upload would hold.
 */
import { crc32, deflateSync } from "node:zlib";

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function signaturePng(width = 300, height = 90): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y += 1) rows[y * (width + 1)] = 0; // filter: none
  for (let x = 10; x < width - 10; x += 1) {
    const center = height / 2 + Math.sin(x / 14) * (height / 3) * Math.cos(x / 47);
    for (let dy = -2; dy <= 2; dy += 1) {
      const y = Math.round(center + dy);
      if (y >= 0 && y < height) rows[y * (width + 1) + 1 + x] = 20;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

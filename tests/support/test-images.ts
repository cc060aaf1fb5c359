/**
 * Real JPEG and PNG images, made here with sharp (a small gradient with some texture), so that
 * tests of uploads need no binary fixture: the server decodes every image it is sent.
 */
import sharp from "sharp";

export async function testImage(format: "jpeg" | "png", width = 64, height = 48, seed = 0) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 37 + seed * 101) % 256;
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return new Uint8Array(await (format === "png" ? image.png() : image.jpeg()).toBuffer());
}

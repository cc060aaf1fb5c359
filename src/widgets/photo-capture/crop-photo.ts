/**
 * Draws the crop chosen in the photo editor onto a canvas and encodes it as JPEG (spec 02 §5:
 * cropped images are output as JPEG). The geometry lives in photo-geometry.ts.
 */
import { cropToCanvasRect, JPEG_QUALITY, type Rect } from "./photo-geometry.ts";

export async function cropPhotoToJpeg(
  image: HTMLImageElement,
  crop: Rect,
  rotationDeg: number,
  zoom: number,
) {
  const drawing = cropToCanvasRect(crop, rotationDeg, zoom, {
    naturalWidth: image.naturalWidth,
    naturalHeight: image.naturalHeight,
    displayWidth: image.width,
    displayHeight: image.height,
  });
  const canvas = document.createElement("canvas");
  canvas.width = drawing.canvasWidth;
  canvas.height = drawing.canvasHeight;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("No 2D canvas context");
  // JPEG has no transparency: what the rotation uncovers is white, not black.
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingQuality = "high";
  context.scale(drawing.outputScale, drawing.outputScale);
  context.translate(-drawing.cropX, -drawing.cropY);
  context.translate(drawing.centerX, drawing.centerY);
  context.rotate(drawing.rotationRad);
  context.scale(drawing.zoom, drawing.zoom);
  context.translate(-drawing.centerX, -drawing.centerY);
  context.drawImage(image, 0, 0, image.naturalWidth, image.naturalHeight);
  return new Promise<Blob>((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The canvas gave no JPEG"))),
      "image/jpeg",
      JPEG_QUALITY,
    );
  });
}

/**
 * The arithmetic of the photo editor and the photo checks (spec 02 §4, §5, §9), kept apart from
 * the DOM so it can be tested: where the crop lies on the full-size image, the rotate and zoom
 * steps, which photos are accepted, and the sample viewer's next image.
 */
import { fileExtension, IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";

export const ZOOM_MIN = 1;
export const ZOOM_MAX = 3;
export const ZOOM_STEP = 0.1;
export const ROTATION_STEP_DEG = 90;
/** Crops are square (aspect 1:1). */
export const CROP_ASPECT = 1;
/** The crop first covers this share of the image's shorter side. */
const INITIAL_CROP_PERCENT = 90;
/**
 * The longest side of a cropped photo, in pixels: a 12 MP crop would make a JPEG over the 2.5 MB
 * upload limit, while 1600 px keeps the detail a clinician needs at a few hundred kB.
 */
export const CROPPED_PHOTO_MAX_PX = 1600;
export const JPEG_QUALITY = 0.9;
/** The sample viewer shows at most this many images, then wraps back to the first. */
export const SAMPLE_IMAGES_MAX = 3;

export type Rect = { x: number; y: number; width: number; height: number };

/** The image as loaded (natural, in image pixels) and as laid out in the editor (CSS pixels). */
export type ImageSizes = {
  naturalWidth: number;
  naturalHeight: number;
  displayWidth: number;
  displayHeight: number;
};

/** How to draw a crop onto the output canvas. */
export type CropDrawing = {
  /** The output canvas, in pixels. */
  canvasWidth: number;
  canvasHeight: number;
  /** From image pixels to output pixels (1, or less for a crop over CROPPED_PHOTO_MAX_PX). */
  outputScale: number;
  /** The crop's top left corner on the natural image. */
  cropX: number;
  cropY: number;
  /** The centre of the natural image, around which the editor rotates and zooms it. */
  centerX: number;
  centerY: number;
  rotationRad: number;
  zoom: number;
};

/**
 * Where the crop drawn in the editor lies on the full-size image. The crop is in the editor's
 * CSS pixels over the laid-out image box, whose content the editor shows zoomed and rotated
 * around its centre (CSS `scale(zoom) rotate(rotation)`): drawing the natural image with the same
 * transforms around the natural centre, offset by the crop, gives what the clinician saw.
 */
export function cropToCanvasRect(
  crop: Rect,
  rotationDeg: number,
  zoom: number,
  sizes: ImageSizes,
): CropDrawing {
  const scaleX = sizes.displayWidth > 0 ? sizes.naturalWidth / sizes.displayWidth : 1;
  const scaleY = sizes.displayHeight > 0 ? sizes.naturalHeight / sizes.displayHeight : 1;
  const width = crop.width * scaleX;
  const height = crop.height * scaleY;
  const outputScale = Math.min(1, CROPPED_PHOTO_MAX_PX / Math.max(width, height, 1));
  return {
    canvasWidth: Math.max(1, Math.round(width * outputScale)),
    canvasHeight: Math.max(1, Math.round(height * outputScale)),
    outputScale,
    cropX: crop.x * scaleX,
    cropY: crop.y * scaleY,
    centerX: sizes.naturalWidth / 2,
    centerY: sizes.naturalHeight / 2,
    rotationRad: (normaliseRotation(rotationDeg) * Math.PI) / 180,
    zoom: clampZoom(zoom),
  };
}

/** The first crop: a centred square over 90 % of the shorter side, in percent of the image. */
export function initialCropPercent(width: number, height: number): Rect {
  if (width <= 0 || height <= 0) return { x: 5, y: 5, width: 90, height: 90 };
  const side = (Math.min(width, height) * INITIAL_CROP_PERCENT) / 100;
  const widthPercent = (side / width) * 100;
  const heightPercent = (side / height) * 100;
  return {
    x: (100 - widthPercent) / 2,
    y: (100 - heightPercent) / 2,
    width: widthPercent,
    height: heightPercent,
  };
}

/** A rotation in degrees as 0, 90, 180 or 270. */
export function normaliseRotation(rotationDeg: number) {
  return (((Math.round(rotationDeg / ROTATION_STEP_DEG) * ROTATION_STEP_DEG) % 360) + 360) % 360;
}

/** One 90° step left (anticlockwise) or right (clockwise). */
export function rotateStep(rotationDeg: number, direction: "left" | "right") {
  return normaliseRotation(rotationDeg + (direction === "right" ? ROTATION_STEP_DEG : -ROTATION_STEP_DEG));
}

/** A zoom within 1 to 3 on the 0.1 grid. */
export function clampZoom(zoom: number) {
  if (!Number.isFinite(zoom)) return ZOOM_MIN;
  // ZOOM_STEP is 0.1: rounding to tenths in decimal avoids 2.3000000000000003.
  const stepped = Math.round(zoom * 10) / 10;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, stepped));
}

export type PhotoProblem = "not_jpeg" | "too_large";

/** Photos are JPEG only and at most 2.5 MB (spec 02 §5). Some cameras leave the type blank. */
export function photoFileProblem(file: { name: string; type: string; size: number }): PhotoProblem | null {
  const extension = fileExtension(file.name);
  const jpeg =
    file.type === "image/jpeg" || (file.type === "" && (extension === "jpg" || extension === "jpeg"));
  if (!jpeg) return "not_jpeg";
  if (file.size > IMAGE_MAX_BYTES) return "too_large";
  return null;
}

/** The sample viewer's next image: the following one, back to the first after the third (or the last). */
export function nextSampleIndex(index: number, sampleCount: number) {
  const shown = Math.min(sampleCount, SAMPLE_IMAGES_MAX);
  return shown <= 0 ? 0 : (index + 1) % shown;
}

import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import {
  clampZoom,
  CROPPED_PHOTO_MAX_PX,
  cropToCanvasRect,
  initialCropPercent,
  nextSampleIndex,
  normaliseRotation,
  photoFileProblem,
  rotateStep,
} from "./photo-geometry.ts";

describe("cropToCanvasRect", () => {
  it("maps a crop drawn over the shown image onto the full-size image", () => {
    const drawing = cropToCanvasRect({ x: 10, y: 20, width: 100, height: 100 }, 0, 1, {
      naturalWidth: 800,
      naturalHeight: 600,
      displayWidth: 400,
      displayHeight: 300,
    });
    expect(drawing).toMatchObject({
      canvasWidth: 200,
      canvasHeight: 200,
      outputScale: 1,
      cropX: 20,
      cropY: 40,
      centerX: 400,
      centerY: 300,
      rotationRad: 0,
      zoom: 1,
    });
  });

  it("keeps a large crop within the longest side allowed", () => {
    const drawing = cropToCanvasRect({ x: 0, y: 0, width: 600, height: 600 }, 0, 1, {
      naturalWidth: 4000,
      naturalHeight: 3000,
      displayWidth: 800,
      displayHeight: 600,
    });
    expect(drawing.canvasWidth).toBe(CROPPED_PHOTO_MAX_PX);
    expect(drawing.canvasHeight).toBe(CROPPED_PHOTO_MAX_PX);
    expect(drawing.outputScale).toBeCloseTo(CROPPED_PHOTO_MAX_PX / 3000);
  });

  it("carries the rotation in radians and the zoom within 1 to 3", () => {
    const sizes = { naturalWidth: 100, naturalHeight: 100, displayWidth: 100, displayHeight: 100 };
    const square = { x: 0, y: 0, width: 50, height: 50 };
    expect(cropToCanvasRect(square, 90, 2.5, sizes)).toMatchObject({ rotationRad: Math.PI / 2, zoom: 2.5 });
    expect(cropToCanvasRect(square, -90, 7, sizes)).toMatchObject({
      rotationRad: (3 * Math.PI) / 2,
      zoom: 3,
    });
  });
});

describe("the editor's steps", () => {
  it("starts with a centred square over 90 % of the shorter side", () => {
    expect(initialCropPercent(1000, 500)).toEqual({ x: 27.5, y: 5, width: 45, height: 90 });
    expect(initialCropPercent(400, 400)).toEqual({ x: 5, y: 5, width: 90, height: 90 });
  });

  it("rotates by 90° steps left and right, within a turn", () => {
    expect(rotateStep(0, "right")).toBe(90);
    expect(rotateStep(0, "left")).toBe(270);
    expect(rotateStep(270, "right")).toBe(0);
    expect(normaliseRotation(-450)).toBe(270);
  });

  it.each([
    [0.5, 1],
    [1.26, 1.3],
    [2.3, 2.3],
    [3.4, 3],
    [Number.NaN, 1],
  ])("zooms %f as %f", (zoom, clamped) => {
    expect(clampZoom(zoom)).toBe(clamped);
  });
});

describe("photo checks", () => {
  it("accepts a JPEG of at most 2.5 MB", () => {
    expect(photoFileProblem({ name: "a.jpg", type: "image/jpeg", size: IMAGE_MAX_BYTES })).toBeNull();
    expect(photoFileProblem({ name: "IMG_1.JPEG", type: "", size: 10 })).toBeNull();
  });

  it("refuses other types and larger files", () => {
    expect(photoFileProblem({ name: "a.png", type: "image/png", size: 10 })).toBe("not_jpeg");
    expect(photoFileProblem({ name: "a.heic", type: "", size: 10 })).toBe("not_jpeg");
    expect(photoFileProblem({ name: "a.jpg", type: "image/jpeg", size: IMAGE_MAX_BYTES + 1 })).toBe(
      "too_large",
    );
  });
});

describe("the sample viewer", () => {
  it("wraps back to the first image after the third", () => {
    expect([0, 1, 2].map((index) => nextSampleIndex(index, 5))).toEqual([1, 2, 0]);
    expect(nextSampleIndex(1, 2)).toBe(0);
    expect(nextSampleIndex(0, 1)).toBe(0);
    expect(nextSampleIndex(0, 0)).toBe(0);
  });
});

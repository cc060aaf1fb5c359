/**
 * The photo editor (spec 02 §4 "Photo capture" and §5): a square crop (react-image-crop), zoom
 * 1 to 3 by 0.1, rotation by 90° left or right, Reset, and Done, which hands back the cropped
 * JPEG. Cancel (or Escape) drops the chosen photo. Part of the image capture chunk.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState } from "react";
import { ReactCrop, convertToPixelCrop, type Crop, type PixelCrop } from "react-image-crop";
import "react-image-crop/dist/ReactCrop.css";
import { Modal } from "../modal/modal.tsx";
import { cropPhotoToJpeg } from "./crop-photo.ts";
import {
  clampZoom,
  CROP_ASPECT,
  initialCropPercent,
  rotateStep,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
} from "./photo-geometry.ts";

type PhotoEditModalProps = {
  /** An object URL of the chosen photo. */
  imageUrl: string;
  onCancel: () => void;
  onDone: (jpeg: Blob) => void;
};

export function PhotoEditModal({ imageUrl, onCancel, onDone }: PhotoEditModalProps) {
  const { t } = useLingui();
  const zoomId = useId();
  const imageRef = useRef<HTMLImageElement>(null);
  const [crop, setCrop] = useState<Crop>();
  const [pixelCrop, setPixelCrop] = useState<PixelCrop>();
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const [rotation, setRotation] = useState(0);
  const [busy, setBusy] = useState(false);

  const centreCrop = (image: HTMLImageElement) => {
    const percent: Crop = { unit: "%", ...initialCropPercent(image.width, image.height) };
    setCrop(percent);
    setPixelCrop(convertToPixelCrop(percent, image.width, image.height));
  };

  const reset = () => {
    setZoom(ZOOM_MIN);
    setRotation(0);
    if (imageRef.current) centreCrop(imageRef.current);
  };

  const done = async () => {
    const image = imageRef.current;
    if (!image || !pixelCrop || busy) return;
    setBusy(true);
    try {
      onDone(await cropPhotoToJpeg(image, pixelCrop, rotation, zoom));
    } catch (error) {
      console.error("Cropping the photo failed", error);
      setBusy(false);
    }
  };

  return (
    <Modal
      title={<Trans id="question_photo_edit_title">Edit photo</Trans>}
      onClose={onCancel}
      className="modal--photo-edit"
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            <Trans id="question_photo_cancel">Cancel</Trans>
          </button>
          <button type="button" className="button button--secondary" onClick={reset}>
            <Trans id="question_photo_reset">Reset</Trans>
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void done()}
            disabled={!pixelCrop}
            aria-disabled={busy || undefined}
          >
            <Trans id="question_photo_done">Done</Trans>
          </button>
        </>
      }
    >
      <div className="photo-editor">
        <ReactCrop
          className="photo-editor__crop"
          crop={crop}
          aspect={CROP_ASPECT}
          keepSelection
          minWidth={40}
          onChange={(pixels, percent) => {
            setCrop(percent);
            setPixelCrop(pixels);
          }}
          ariaLabels={{
            cropArea: t({ id: "question_photo_crop_area", message: "Crop area: arrow keys move it" }),
            nwDragHandle: t({
              id: "question_photo_crop_nw",
              message: "Top left corner: arrow keys resize the crop",
            }),
            nDragHandle: t({ id: "question_photo_crop_n", message: "Top edge: arrow keys resize the crop" }),
            neDragHandle: t({
              id: "question_photo_crop_ne",
              message: "Top right corner: arrow keys resize the crop",
            }),
            eDragHandle: t({
              id: "question_photo_crop_e",
              message: "Right edge: arrow keys resize the crop",
            }),
            seDragHandle: t({
              id: "question_photo_crop_se",
              message: "Bottom right corner: arrow keys resize the crop",
            }),
            sDragHandle: t({
              id: "question_photo_crop_s",
              message: "Bottom edge: arrow keys resize the crop",
            }),
            swDragHandle: t({
              id: "question_photo_crop_sw",
              message: "Bottom left corner: arrow keys resize the crop",
            }),
            wDragHandle: t({ id: "question_photo_crop_w", message: "Left edge: arrow keys resize the crop" }),
          }}
        >
          <img
            ref={imageRef}
            className="photo-editor__image"
            src={imageUrl}
            alt={t({ id: "question_photo_to_crop", message: "The photo to crop" })}
            style={{ transform: `scale(${zoom}) rotate(${rotation}deg)` }}
            onLoad={(event) => centreCrop(event.currentTarget)}
          />
        </ReactCrop>
        <div className="photo-editor__controls">
          <div className="photo-editor__zoom">
            <label htmlFor={zoomId}>
              <Trans id="question_photo_zoom">Zoom</Trans>
            </label>
            <input
              id={zoomId}
              type="range"
              min={ZOOM_MIN}
              max={ZOOM_MAX}
              step={ZOOM_STEP}
              value={zoom}
              aria-valuetext={`${zoom.toFixed(1)}×`}
              onChange={(event) => setZoom(clampZoom(Number(event.target.value)))}
            />
            <span className="photo-editor__zoom-value" aria-hidden="true">
              {`${zoom.toFixed(1)}×`}
            </span>
          </div>
          <div className="photo-editor__rotate">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setRotation((current) => rotateStep(current, "left"))}
            >
              <span aria-hidden="true">⟲</span> <Trans id="question_photo_rotate_left">Rotate left</Trans>
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setRotation((current) => rotateStep(current, "right"))}
            >
              <span aria-hidden="true">⟳</span> <Trans id="question_photo_rotate_right">Rotate right</Trans>
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}

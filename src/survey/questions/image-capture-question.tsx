/**
 * Image capture (spec 02 §2, §4 "Photo capture", §5): up to 3 JPEG photos of at most 2.5 MB,
 * each cropped square in the photo editor before it joins the answer (the photo-capture
 * widget's flow). The answer names the photos (one entry per file name); their blobs go to the
 * page with onChange, which uploads them before the submission. Sample images show what to
 * take; the camera tip says how. Loaded on demand (react-image-crop): QuestionBody imports it
 * lazily.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { photoFileName, valueEntry } from "../../../core/survey-engine/answer-values.ts";
import { PHOTOS_MAX_PER_QUESTION } from "../../../core/contracts/survey-definition.ts";
import { PhotoCapture, type CapturedPhoto } from "../../widgets/photo-capture/photo-capture.tsx";
import { nextSampleIndex, SAMPLE_IMAGES_MAX } from "../../widgets/photo-capture/photo-geometry.ts";
import type { QuestionProps } from "./question-props.ts";

function SampleViewer({ images }: { images: readonly string[] }) {
  const { t } = useLingui();
  const [index, setIndex] = useState(0);
  const total = Math.min(images.length, SAMPLE_IMAGES_MAX);
  const source = images[index];
  if (!source) return null;
  const number = index + 1;
  return (
    <figure className="image-capture__samples">
      <img
        className="image-capture__sample"
        src={source}
        alt={t({ id: "question_photo_sample_alt", message: `Sample photo ${number} of ${total}` })}
      />
      <figcaption className="image-capture__sample-caption">
        <span aria-hidden="true">
          <Trans id="question_photo_sample_count">
            Sample {number} of {total}
          </Trans>
        </span>
        {total > 1 ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setIndex((current) => nextSampleIndex(current, images.length))}
          >
            <Trans id="question_photo_sample_next">Next sample</Trans>
          </button>
        ) : null}
      </figcaption>
    </figure>
  );
}

export function ImageCaptureQuestion({
  question,
  answer,
  files,
  onChange,
  readOnly = false,
  context,
  labelId,
  describedBy,
}: QuestionProps) {
  const names = answer.flatMap((entry) =>
    typeof entry.value === "string" && entry.value !== "" ? [entry.value] : [],
  );
  const photos: CapturedPhoto[] = names.map((name) => ({ name, blob: files.get(name) }));

  /** The widget's list back into the answer (its other entries kept in place) and the blobs. */
  const change = (next: readonly CapturedPhoto[]) => {
    const known = new Set(names);
    const kept = new Set(next.map((photo) => photo.name));
    const nextAnswer = [
      ...answer.filter(
        (entry) => typeof entry.value !== "string" || !known.has(entry.value) || kept.has(entry.value),
      ),
      ...next.filter((photo) => !known.has(photo.name)).map((photo) => valueEntry(photo.name)),
    ];
    const nextFiles = new Map<string, Blob>();
    for (const photo of next) if (photo.blob) nextFiles.set(photo.name, photo.blob);
    onChange(nextAnswer, nextFiles);
  };

  return (
    <div className="image-capture" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {question.preview_images && question.preview_images.length > 0 ? (
        <SampleViewer images={question.preview_images} />
      ) : null}
      {question.camera_tip ? <p className="image-capture__tip">{question.camera_tip}</p> : null}
      <PhotoCapture
        photos={photos}
        onChange={change}
        max={PHOTOS_MAX_PER_QUESTION}
        newPhotoName={() => photoFileName(context, question.id, crypto.randomUUID())}
        readOnly={readOnly}
      />
    </div>
  );
}

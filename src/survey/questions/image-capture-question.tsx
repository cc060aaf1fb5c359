/**
 * Image capture (spec 02 §2, §4 "Photo capture", §5): up to 3 JPEG photos of at most 2.5 MB,
 * each cropped square in the photo editor before it joins the answer. The answer names the
 * photos (one entry per file name); their blobs go to the page with onChange, which uploads
 * them before the submission. Sample images show what to take; the camera tip says how.
 * Loaded on demand (react-image-crop): QuestionBody imports it lazily.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useId, useRef, useState, type ChangeEvent } from "react";
import { IMAGE_MAX_BYTES } from "../../contracts/files.ts";
import { photoFileName, valueEntry } from "../engine/answer-values.ts";
import { PHOTOS_MAX_PER_QUESTION } from "../engine/definition.ts";
import { idList } from "./class-names.ts";
import { PhotoEditModal } from "../../widgets/photo-capture/photo-edit-modal.tsx";
import {
  nextSampleIndex,
  photoFileProblem,
  SAMPLE_IMAGES_MAX,
  type PhotoProblem,
} from "../../widgets/photo-capture/photo-geometry.ts";
import type { QuestionProps } from "./question-props.ts";

/** An image of a blob; its object URL lives as long as the element. */
function BlobImage({ blob, alt, className }: { blob: Blob; alt: string; className: string }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(blob);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return <img ref={attach} alt={alt} className={className} />;
}

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
  const { t } = useLingui();
  const problemId = useId();
  const countId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<PhotoProblem | null>(null);
  const names = answer.flatMap((entry) =>
    typeof entry.value === "string" && entry.value !== "" ? [entry.value] : [],
  );
  const full = names.length >= PHOTOS_MAX_PER_QUESTION;

  const referencedFiles = (kept: readonly string[]) => {
    const next = new Map<string, Blob>();
    for (const name of kept) {
      const blob = files.get(name);
      if (blob) next.set(name, blob);
    }
    return next;
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Choosing the same file again must fire a change.
    event.target.value = "";
    if (!file) return;
    const fileProblem = photoFileProblem(file);
    setProblem(fileProblem);
    if (fileProblem) return;
    setEditing(URL.createObjectURL(file));
  };

  const closeEditor = () => {
    if (editing) URL.revokeObjectURL(editing);
    setEditing(null);
  };

  const add = (jpeg: Blob) => {
    closeEditor();
    if (jpeg.size > IMAGE_MAX_BYTES) {
      setProblem("too_large");
      return;
    }
    const name = photoFileName(context, question.id, crypto.randomUUID());
    const nextFiles = referencedFiles(names);
    nextFiles.set(name, jpeg);
    onChange([...answer.filter((entry) => entry.value !== name), valueEntry(name)], nextFiles);
  };

  const remove = (name: string) => {
    const kept = names.filter((existing) => existing !== name);
    onChange(
      answer.filter((entry) => entry.value !== name),
      referencedFiles(kept),
    );
    setProblem(null);
    addRef.current?.focus();
  };

  let problemText: string | null = null;
  if (problem === "too_large") {
    problemText = t({
      id: "question_photo_too_large",
      message: "Your image exceeded 2.5 mb. Please reduce the file size.",
    });
  } else if (problem === "not_jpeg") {
    problemText = t({
      id: "question_photo_not_jpeg",
      message: "Sorry, we can't accept this file type. Please try with a different type of file.",
    });
  }

  const count = names.length;
  const max = PHOTOS_MAX_PER_QUESTION;
  return (
    <div className="image-capture" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {question.preview_images && question.preview_images.length > 0 ? (
        <SampleViewer images={question.preview_images} />
      ) : null}
      {question.camera_tip ? <p className="image-capture__tip">{question.camera_tip}</p> : null}
      {count > 0 ? (
        <ul className="image-capture__photos">
          {names.map((name, index) => {
            const blob = files.get(name);
            const number = index + 1;
            return (
              <li key={name} className="image-capture__photo">
                {blob ? (
                  <BlobImage
                    blob={blob}
                    className="image-capture__thumbnail"
                    alt={t({ id: "question_photo_alt", message: `Photo ${number}` })}
                  />
                ) : (
                  <span className="image-capture__file-name">{name}</span>
                )}
                {readOnly ? null : (
                  <button type="button" className="button button--secondary" onClick={() => remove(name)}>
                    <Trans id="question_photo_delete">
                      Delete <span className="visually-hidden">photo {number}</span>
                    </Trans>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      <p id={countId} className="image-capture__count">
        <Trans id="question_photo_count">
          {count} of {max} photos
        </Trans>
      </p>
      {readOnly ? null : (
        <>
          <input
            ref={inputRef}
            type="file"
            accept="image/jpeg"
            capture="environment"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={choose}
          />
          <button
            ref={addRef}
            type="button"
            className="button button--primary image-capture__add"
            // Not disabled: focus comes back here from the editor and must not fall to the page.
            aria-disabled={full || undefined}
            aria-describedby={idList(countId, problemText && problemId)}
            onClick={() => {
              if (!full) inputRef.current?.click();
            }}
          >
            <Trans id="question_photo_add">Add Photo</Trans>
          </button>
        </>
      )}
      <p id={problemId} className="field-error image-capture__problem" role="alert">
        {problemText}
      </p>
      {editing ? <PhotoEditModal imageUrl={editing} onCancel={closeEditor} onDone={add} /> : null}
    </div>
  );
}

/**
 * Photo capture (spec 02 section 2; its states, section 4): empty, then a chosen image opened in
 * the photo editor (crop square, rotate, zoom), then the cropped result in the list; Delete
 * returns it to the list without that photo (empty once the last one goes). JPEG photos of at
 * most 2.5 MB (section 5), from the back camera where there is one, up to `max`.
 *
 * Controlled: `photos` is the value, each with its name and, while it is on this device, its
 * blob; `onChange` receives the whole new list. New photos are named by `newPhotoName`.
 * The editor pulls in react-image-crop: load this widget on demand (the image question is).
 *
 * The message ids keep the image question's names (question_photo_*): the texts are the ones the
 * question showed before the flow moved here, with their translations.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState, type ChangeEvent } from "react";
import { IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import { PhotoEditModal } from "./photo-edit-modal.tsx";
import { photoFileProblem, type PhotoProblem } from "./photo-geometry.ts";
import "./photo-capture.css";
import { BlobImage } from "../blob-image/blob-image.tsx";

export type CapturedPhoto = {
  /** The file name the answer stores. */
  name: string;
  /** The cropped JPEG, or undefined once it only exists on the server (the name is shown). */
  blob: Blob | undefined;
};

export type PhotoCaptureProps = {
  photos: readonly CapturedPhoto[];
  onChange: (photos: CapturedPhoto[]) => void;
  /** How many photos it takes (the image question: 3). */
  max?: number;
  /** The name of a new photo (a JPEG file name). */
  newPhotoName?: () => string;
  readOnly?: boolean;
  /** Makes the widget a group named by this element (when no enclosing group names it). */
  labelId?: string;
  describedBy?: string;
};

const DEFAULT_MAX = 3;

function defaultPhotoName() {
  return `photo-${crypto.randomUUID()}.jpeg`;
}

/** An image of a blob; its object URL lives as long as the element. */
function idList(...ids: (string | false | null | undefined)[]): string | undefined {
  const kept = ids.filter(Boolean);
  return kept.length > 0 ? kept.join(" ") : undefined;
}

export function PhotoCapture({
  photos,
  onChange,
  max = DEFAULT_MAX,
  newPhotoName = defaultPhotoName,
  readOnly = false,
  labelId,
  describedBy,
}: PhotoCaptureProps) {
  const { t } = useLingui();
  const problemId = useId();
  const countId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<PhotoProblem | null>(null);
  const count = photos.length;
  const full = count >= max;

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
    const name = newPhotoName();
    onChange([...photos.filter((photo) => photo.name !== name), { name, blob: jpeg }]);
  };

  const remove = (name: string) => {
    onChange(photos.filter((photo) => photo.name !== name));
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

  return (
    <div
      className="photo-capture"
      role={labelId ? "group" : undefined}
      aria-labelledby={labelId}
      aria-describedby={labelId ? describedBy : undefined}
    >
      {count > 0 ? (
        <ul className="photo-capture__photos">
          {photos.map(({ name, blob }, index) => {
            const number = index + 1;
            return (
              <li key={name} className="photo-capture__photo">
                {blob ? (
                  <BlobImage
                    blob={blob}
                    className="photo-capture__thumbnail"
                    alt={t({ id: "question_photo_alt", message: `Photo ${number}` })}
                  />
                ) : (
                  <span className="photo-capture__file-name">{name}</span>
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
      <p id={countId} className="photo-capture__count">
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
            className="button button--primary photo-capture__add"
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
      <p id={problemId} className="field-error photo-capture__problem" role="alert">
        {problemText}
      </p>
      {editing ? <PhotoEditModal imageUrl={editing} onCancel={closeEditor} onDone={add} /> : null}
    </div>
  );
}

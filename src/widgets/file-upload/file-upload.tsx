/**
 * File upload (spec 02 section 5): a button that opens the file chooser for the caller's
 * extensions; a file of another type is refused with one of the spec's two texts.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState, type ReactNode } from "react";
import { acceptAttribute, checkFileType, type FileTypeRejection } from "./file-types.ts";

export type FileUploadProps = {
  label: ReactNode;
  /** Accepted extensions, e.g. ["pdf", "docx"]. */
  accepted: readonly string[];
  onFile: (file: File) => void;
  buttonText?: ReactNode;
};

export function FileUpload({ label, accepted, onFile, buttonText }: FileUploadProps) {
  const { t } = useLingui();
  const inputRef = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const errorId = useId();
  const [rejection, setRejection] = useState<FileTypeRejection | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const rejectionText =
    rejection === "not_document_or_image"
      ? t({
          id: "widget_file_rejected_documents",
          message: "Oh no! We can't take file types other than PDF, Word files, JPEG, or PNG.",
        })
      : rejection === "unsupported_type"
        ? t({
            id: "widget_file_rejected_type",
            message: "Sorry, we can't accept this file type. Please try with a different type of file.",
          })
        : null;
  return (
    <div className="rac-field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="rac-field__label">
        {label}
      </span>
      <input
        ref={inputRef}
        type="file"
        accept={acceptAttribute(accepted)}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (!file) return;
          const problem = checkFileType(file, accepted);
          setRejection(problem);
          if (problem) return;
          setChosen(file.name);
          onFile(file);
        }}
      />
      <div>
        <button
          type="button"
          className="button button--secondary"
          aria-describedby={rejectionText ? errorId : undefined}
          onClick={() => inputRef.current?.click()}
        >
          {buttonText ?? <Trans id="widget_file_choose">Choose a file</Trans>}
        </button>
      </div>
      {chosen ? (
        <p className="rac-field__description">
          <Trans id="widget_file_chosen">Chosen: {chosen}</Trans>
        </p>
      ) : null}
      <p id={errorId} className="field-error" role="alert">
        {rejectionText}
      </p>
    </div>
  );
}

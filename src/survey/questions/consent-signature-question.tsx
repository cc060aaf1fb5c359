/**
 * The consent signature question (spec 02 sections 2 to 5). The signer chooses
 * a mode: draw (the signature pad of the scribble question), type (a typed name), camera (a photo
 * of a signature on paper, through the image question's photo editor) or image (an uploaded
 * .jpg .jpeg .png or .svg of at most 2.5 MB). Sign is enabled only when the chosen mode has
 * content (consent-signature-model.ts). A clinician or witness signature first asks for the
 * account's password again (the page's requestPassword); a refused one signs nothing.
 *
 * Once signed, the answer holds one entry (printed name, file name or typed name, mode, device
 * time with offset) and the image's blob goes to the page for upload; the screen shows the
 * manifestation: printed name, date and time with zone, and the signature's meaning.
 * Participants and caregivers sign in person on the clinician's tablet.
 *
 * Loaded on demand with the signature pad and the photo editor.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useReducer, useRef, useState, type ChangeEvent } from "react";
import { SignaturePad, type SignaturePadHandle } from "../../widgets/signature-pad/signature-pad.tsx";
import type { SignatureManifestation } from "../../../core/contracts/consent-schemas.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { idList } from "./class-names.ts";
import { formatDateTime } from "../../i18n/format-date.ts";
import {
  maySign,
  modesFor,
  needsPassword,
  reduceSignature,
  signatureEntry,
  signatureFileName,
  signatureImageProblem,
  signatureImageOf,
  signerRoleOf,
  startSignature,
  type SignatureMode,
} from "./consent-signature-model.ts";
import { type SignerRole } from "../../../core/contracts/roles.ts";
import { PhotoEditModal } from "../../widgets/photo-capture/photo-edit-modal.tsx";
import { photoFileProblem } from "../../widgets/photo-capture/photo-geometry.ts";
import type { QuestionProps } from "./question-props.ts";
import { BlobImage } from "../../widgets/blob-image/blob-image.tsx";

const PAD_BACKGROUND = "#ffffff";

/** The meaning as the signer reads it (the stored and printed meaning stays the English one). */
export const MEANING_TEXTS: Record<SignerRole, MessageDescriptor> = {
  participant: msg({ id: "consent_meaning_participant", message: "Participant consent" }),
  caregiver: msg({ id: "consent_meaning_caregiver", message: "Legally authorised representative" }),
  clinro: msg({ id: "consent_meaning_clinro", message: "Consent obtained by" }),
  witness: msg({ id: "consent_meaning_witness", message: "Witnessed by" }),
};

const MODE_TEXTS: Record<SignatureMode, MessageDescriptor> = {
  draw: msg({ id: "consent_signature_mode_draw", message: "Draw" }),
  text: msg({ id: "consent_signature_mode_text", message: "Type" }),
  camera: msg({ id: "consent_signature_mode_camera", message: "Camera" }),
  image: msg({ id: "consent_signature_mode_image", message: "Upload image" }),
};

export type ConsentSignatureProps = QuestionProps & {
  /** The signer's printed name: the participant's name, or the signed-in user's; a caregiver types theirs. */
  signerName: string;
  /**
   * Asks a clinician or witness for their password; resolves with the capture time once it was
   * accepted, or null (cancelled or refused): then nothing is signed.
   */
  requestPassword: (role: SignerRole) => Promise<Date | null>;
  /** The server's manifestation of this signature, when it was signed in an earlier session. */
  stored?: SignatureManifestation | undefined;
};

function dataUrlToBlob(dataUrl: string): Blob {
  const [header = "", data = ""] = dataUrl.split(",");
  const type = /data:([^;]+)/.exec(header)?.[1] ?? "image/png";
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new Blob([bytes], { type });
}

/** An SVG becomes a PNG before upload: the consent PDF embeds PNG and JPEG only. */
async function svgToPng(file: Blob): Promise<Blob> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const width = image.naturalWidth || 600;
    const height = image.naturalHeight || 200;
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d canvas");
    context.fillStyle = PAD_BACKGROUND;
    context.fillRect(0, 0, width, height);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** An image of a blob; its object URL lives as long as the element. */
/**
 * Date and time with the zone, by the product's one rule (src/i18n/format-date.ts): 22-Nov-2026
 * 10:15:30 CET, the wall-clock time of the zone the signature was made in when it is known.
 */
export function formatSignedAt(iso: string, timeZone?: string): string {
  return formatDateTime(iso, { seconds: true, timeZone: timeZone ?? true });
}

export function SignatureManifestationView(props: {
  role: SignerRole;
  printedName: string;
  signedAt: string;
  timeZone?: string | undefined;
  signatureType: string | undefined;
  image?: Blob | undefined;
  /** A typed signature's text (it may differ from the printed name). */
  typed?: string | undefined;
}) {
  const { t } = useLingui();
  const meaning = t(MEANING_TEXTS[props.role]);
  const when = formatSignedAt(props.signedAt, props.timeZone);
  const name = props.printedName;
  return (
    <figure className="consent-signature__manifestation" data-testid="signature-manifestation">
      {props.image ? (
        <BlobImage
          blob={props.image}
          className="consent-signature__image"
          alt={t({ id: "consent_signature_image_alt", message: `Signature of ${name}` })}
        />
      ) : props.signatureType === "text" ? (
        <p className="consent-signature__typed">{props.typed ?? name}</p>
      ) : null}
      <figcaption>
        <dl className="consent-signature__facts">
          <dt>
            <Trans id="consent_manifestation_meaning">Meaning</Trans>
          </dt>
          <dd>{meaning}</dd>
          <dt>
            <Trans id="consent_manifestation_name">Printed name</Trans>
          </dt>
          <dd>{name}</dd>
          <dt>
            <Trans id="consent_manifestation_when">Signed</Trans>
          </dt>
          <dd>
            <time dateTime={props.signedAt}>{when}</time>
          </dd>
        </dl>
      </figcaption>
    </figure>
  );
}

function SignatureControl(props: ConsentSignatureProps) {
  const { question, answer, files, onChange, readOnly = false, context, labelId, describedBy } = props;
  const { t } = useLingui();
  const role = signerRoleOf(question);
  const modes = modesFor(role);
  const nameId = useId();
  const problemId = useId();
  const [session, dispatch] = useReducer(reduceSignature, undefined, () =>
    startSignature(role, props.signerName),
  );
  const { draft, printedName, problem } = session;
  const [editing, setEditing] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const padRef = useRef<SignaturePadHandle>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const pictureRef = useRef<HTMLInputElement>(null);
  const signed: AnswerEntry | undefined = answer[0];

  const chooseMode = (mode: SignatureMode) => dispatch({ type: "mode", mode });

  const clearDraft = () => {
    padRef.current?.clear();
    dispatch({ type: "clear" });
  };

  const choosePhoto = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const fileProblem = photoFileProblem(file);
    dispatch({
      type: "problem",
      problem: fileProblem === "too_large" ? "too_large" : fileProblem === null ? null : "not_jpeg",
    });
    if (fileProblem) return;
    setEditing(URL.createObjectURL(file));
  };

  const closeEditor = () => {
    if (editing) URL.revokeObjectURL(editing);
    setEditing(null);
  };

  const choosePicture = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const fileProblem = signatureImageProblem(file);
    dispatch({ type: "problem", problem: fileProblem });
    if (fileProblem) return;
    let picture: Blob = file;
    if (file.type === "image/svg+xml" || file.name.toLowerCase().endsWith(".svg")) {
      try {
        picture = await svgToPng(file);
      } catch (error) {
        console.error("The SVG signature could not be read", error);
        dispatch({ type: "problem", problem: "file_type" });
        return;
      }
    }
    dispatch({ type: "picture", image: picture });
  };

  const sign = async () => {
    if (!maySign(session) || signing) return;
    setSigning(true);
    try {
      let signedAt = new Date();
      if (needsPassword(role)) {
        const accepted = await props.requestPassword(role);
        if (!accepted) return;
        signedAt = accepted;
      }
      const blob = signatureImageOf(draft);
      const name = printedName.trim();
      if (draft.mode === "text" || !blob) {
        onChange([
          signatureEntry({
            questionId: question.id,
            printedName: name,
            mode: "text",
            value: draft.typed.trim(),
            signedAt,
          }),
        ]);
        return;
      }
      const extension = blob.type === "image/jpeg" ? "jpeg" : "png";
      const fileName = signatureFileName(context, question.id, crypto.randomUUID(), extension);
      onChange(
        [
          signatureEntry({
            questionId: question.id,
            printedName: name,
            mode: draft.mode,
            value: fileName,
            signedAt,
          }),
        ],
        new Map([[fileName, blob]]),
      );
    } finally {
      setSigning(false);
    }
  };

  const signAgain = () => {
    dispatch({ type: "clear" });
    onChange([], new Map());
  };

  const meaning = t(MEANING_TEXTS[role]);
  if (signed || readOnly) {
    const image = typeof signed?.value === "string" ? files.get(signed.value) : undefined;
    return (
      <div
        className="consent-signature"
        role="group"
        aria-labelledby={labelId}
        aria-describedby={describedBy}
      >
        {signed ? (
          <SignatureManifestationView
            role={role}
            printedName={props.stored?.printed_name ?? signed.label}
            signedAt={props.stored?.captured_at ?? signed.signed_date ?? ""}
            timeZone={props.stored?.time_zone}
            signatureType={signed.signature_type}
            image={image}
            typed={typeof signed.value === "string" ? signed.value : undefined}
          />
        ) : (
          <p>
            <Trans id="consent_signature_none">Not signed.</Trans>
          </p>
        )}
        {readOnly ? null : (
          <div className="consent-signature__actions">
            <button type="button" className="button button--secondary" onClick={signAgain}>
              <Trans id="consent_signature_again">Sign again</Trans>
            </button>
          </div>
        )}
      </div>
    );
  }

  let problemText: string | null = null;
  if (problem === "too_large") {
    problemText = t({
      id: "question_photo_too_large",
      message: "Your image exceeded 2.5 mb. Please reduce the file size.",
    });
  } else if (problem === "file_type" || problem === "not_jpeg") {
    problemText = t({
      id: "question_photo_not_jpeg",
      message: "Sorry, we can't accept this file type. Please try with a different type of file.",
    });
  }

  const content = signatureImageOf(draft);
  return (
    <div className="consent-signature" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      <p className="consent-signature__meaning">
        <Trans id="consent_signature_meaning">Signing as: {meaning}</Trans>
      </p>
      {role === "caregiver" ? (
        <div className="field">
          <label htmlFor={nameId}>
            <Trans id="consent_signature_caregiver_name">Printed name of the representative</Trans>
          </label>
          <input
            id={nameId}
            className="input"
            value={printedName}
            autoComplete="off"
            onChange={(event) => dispatch({ type: "printed-name", name: event.target.value })}
          />
        </div>
      ) : (
        <p className="consent-signature__signer">
          <Trans id="consent_signature_signer">Signer: {printedName}</Trans>
        </p>
      )}
      <fieldset className="consent-signature__modes">
        <legend>
          <Trans id="consent_signature_modes">How to sign</Trans>
        </legend>
        {modes.map((mode) => (
          <label key={mode} className="consent-signature__mode">
            <input
              type="radio"
              name={`signature-mode-${question.id}`}
              value={mode}
              checked={draft.mode === mode}
              onChange={() => chooseMode(mode)}
            />
            {t(MODE_TEXTS[mode])}
          </label>
        ))}
      </fieldset>

      <div className="consent-signature__area">
        {draft.mode === "draw" ? (
          <SignaturePad
            ref={padRef}
            label={t({
              id: "consent_signature_pad",
              message: "Signature area: sign with a finger or a stylus",
            })}
            // Each stroke's PNG becomes the draw mode's content.
            onChange={(png) => dispatch({ type: "drawn", png: png === null ? null : dataUrlToBlob(png) })}
          />
        ) : null}
        {draft.mode === "text" ? (
          <div className="field">
            <label htmlFor={`${nameId}-typed`}>
              <Trans id="consent_signature_typed_label">Type your full name</Trans>
            </label>
            <input
              id={`${nameId}-typed`}
              className="input consent-signature__typed-input"
              value={draft.typed}
              autoComplete="off"
              onChange={(event) => {
                const typed = event.target.value;
                dispatch({ type: "typed", text: typed });
              }}
            />
          </div>
        ) : null}
        {draft.mode === "camera" ? (
          <>
            <input
              ref={cameraRef}
              type="file"
              accept="image/jpeg"
              capture="environment"
              className="visually-hidden"
              tabIndex={-1}
              aria-hidden="true"
              onChange={choosePhoto}
            />
            <button
              type="button"
              className="button button--secondary"
              aria-describedby={idList(problemText && problemId)}
              onClick={() => cameraRef.current?.click()}
            >
              <Trans id="consent_signature_take_photo">Take a photo of the signature</Trans>
            </button>
          </>
        ) : null}
        {draft.mode === "image" ? (
          <>
            <input
              ref={pictureRef}
              type="file"
              accept=".jpg,.jpeg,.png,.svg"
              className="visually-hidden"
              tabIndex={-1}
              aria-hidden="true"
              onChange={(event) => void choosePicture(event)}
            />
            <button
              type="button"
              className="button button--secondary"
              aria-describedby={idList(problemText && problemId)}
              onClick={() => pictureRef.current?.click()}
            >
              <Trans id="consent_signature_choose_image">Choose an image of the signature</Trans>
            </button>
          </>
        ) : null}
        {content && draft.mode !== "draw" ? (
          <BlobImage
            blob={content}
            className="consent-signature__image"
            alt={t({ id: "consent_signature_preview_alt", message: "The signature to sign with" })}
          />
        ) : null}
      </div>

      <p id={problemId} className="field-error" role="alert">
        {problemText}
      </p>

      <div className="consent-signature__actions">
        <button type="button" className="button button--secondary" onClick={clearDraft}>
          <Trans id="consent_signature_clear">Clear</Trans>
        </button>
        <button
          type="button"
          className="button button--primary consent-signature__sign"
          disabled={!maySign(session) || signing}
          onClick={() => void sign()}
        >
          <Trans id="consent_signature_sign">Sign</Trans>
        </button>
      </div>
      {editing ? (
        <PhotoEditModal
          imageUrl={editing}
          onCancel={closeEditor}
          onDone={(jpeg) => {
            closeEditor();
            dispatch({ type: "photo", jpeg });
          }}
        />
      ) : null}
    </div>
  );
}

/** The question: its label (the heading the runner focuses), instructions and the signature control. */
export function ConsentSignatureQuestion(props: ConsentSignatureProps) {
  const commentsId = useId();
  const { question, labelId } = props;
  return (
    <div className="question question--consent-signature">
      <h2 id={labelId} tabIndex={-1} className="question__label" data-question-label="">
        {question.label}
      </h2>
      {question.comments ? (
        <div id={commentsId} className="question__comments">
          {question.comments}
        </div>
      ) : null}
      <SignatureControl {...props} describedBy={question.comments ? commentsId : undefined} />
    </div>
  );
}

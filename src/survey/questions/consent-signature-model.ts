/**
 * The rules of the consent signature question (spec 02 sections 3 to 5), kept
 * apart from the DOM so they can be tested: who signs, with which modes, when the Sign button is
 * enabled, which uploaded pictures are accepted, the answer entry a signature makes, and the
 * meaning shown in its manifestation.
 */
import { fileExtension, IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { formatUtcOffset } from "../../../core/survey-engine/answer-values.ts";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { SIGNATURE_TYPES, type SignatureType } from "../../../core/contracts/consent-schemas.ts";
import { SIGNER_ROLES, USER_SIGNER_ROLES, type SignerRole } from "../../../core/contracts/roles.ts";

/** The wire names of the modes: draw, text (typed name), camera (photo), image (uploaded picture). */
export const SIGNATURE_MODES = SIGNATURE_TYPES;
export type SignatureMode = SignatureType;

/** The extensions the signature upload accepts (spec 02 section 5). */
export const SIGNATURE_IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "svg"] as const;

export function signerRoleOf(question: Question): SignerRole {
  const role = (question.attributes as { signer_role?: unknown }).signer_role;
  return (SIGNER_ROLES as readonly unknown[]).includes(role) ? (role as SignerRole) : "participant";
}

/**
 * The modes offered to a signer. Spec 02 section 4 gives the clinician draw, type and camera;
 * the uploaded picture is for the signers who may bring one (participant, caregiver, witness).
 */
export function modesFor(role: SignerRole): readonly SignatureMode[] {
  return role === "clinro" ? ["draw", "text", "camera"] : SIGNATURE_MODES;
}

/** Staff signatures are electronic signatures of an account: they ask for its password again. */
export function needsPassword(role: SignerRole) {
  return (USER_SIGNER_ROLES as readonly SignerRole[]).includes(role);
}

/** What the signer has produced so far in each mode. */
export type SignatureDraft = {
  mode: SignatureMode;
  /** draw: the pad's PNG, null while the pad is empty. */
  drawn: Blob | null;
  /** text: the typed name. */
  typed: string;
  /** camera: the cropped photo. */
  photo: Blob | null;
  /** image: the accepted picture. */
  picture: Blob | null;
};

export function emptyDraft(mode: SignatureMode): SignatureDraft {
  return { mode, drawn: null, typed: "", photo: null, picture: null };
}

/** The Sign button is enabled only when the chosen mode has content (spec 02 section 4). */
export function canSign(draft: SignatureDraft): boolean {
  switch (draft.mode) {
    case "draw":
      return draft.drawn !== null && draft.drawn.size > 0;
    case "text":
      return draft.typed.trim() !== "";
    case "camera":
      return draft.photo !== null && draft.photo.size > 0;
    case "image":
      return draft.picture !== null && draft.picture.size > 0;
  }
}

export type SignatureImageProblem = "file_type" | "too_large";

/** Pictures: .jpg .jpeg .png .svg of at most 2.5 MB (spec 02 section 5). */
export function signatureImageProblem(file: { name: string; size: number }): SignatureImageProblem | null {
  const extension = fileExtension(file.name);
  if (!(SIGNATURE_IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return "file_type";
  if (file.size > IMAGE_MAX_BYTES) return "too_large";
  return null;
}

/** An ISO 8601 timestamp of the device's wall clock with its offset: 2026-11-22T14:30:05+01:00. */
export function isoWithOffset(date: Date): string {
  const pad = (value: number, length = 2) => String(value).padStart(length, "0");
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    formatUtcOffset(date.getTimezoneOffset())
  );
}

/** The upload's file name of an image signature: PNG or JPEG, named like the image capture's. */
export function signatureFileName(
  context: { studyId: number; participantId: number },
  questionId: string,
  stamp: string,
  extension: "png" | "jpeg",
): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_.-]/g, "-");
  return `consent_${context.studyId}_${context.participantId}_${safe(questionId)}_${safe(stamp)}.${extension}`;
}

/**
 * The answer entry of a signature: the printed name, the uploaded file's name
 * or the typed name, the question, the mode and the device time of signing with its offset.
 */
export function signatureEntry(input: {
  questionId: string;
  printedName: string;
  mode: SignatureMode;
  value: string;
  signedAt: Date;
}): AnswerEntry {
  return {
    label: input.printedName,
    value: input.value,
    question: input.questionId,
    signature_type: input.mode,
    signed_date: isoWithOffset(input.signedAt),
  };
}

/** The image file a signature's answer names, when its mode makes one. */
export function signatureFileOf(entry: AnswerEntry | undefined): string | undefined {
  if (!entry || entry.signature_type === "text" || typeof entry.value !== "string") return undefined;
  return entry.value;
}

/**
 * What the signer is doing before Sign (spec 02 section 4), as one value changed only by
 * `reduceSignature`: the mode, what each mode holds, the printed name, the file problem shown.
 * The component renders it and runs the asynchronous parts (reading a picture, the password).
 */
export type SignatureSession = {
  draft: SignatureDraft;
  printedName: string;
  problem: SignatureImageProblem | "not_jpeg" | null;
};

export type SignatureAction =
  | { type: "mode"; mode: SignatureMode }
  | { type: "drawn"; png: Blob | null }
  | { type: "typed"; text: string }
  | { type: "photo"; jpeg: Blob }
  | { type: "picture"; image: Blob }
  | { type: "problem"; problem: SignatureSession["problem"] }
  | { type: "printed-name"; name: string }
  /** Clear, and Sign again: the mode stays, its content goes. */
  | { type: "clear" };

export function startSignature(role: SignerRole, signerName: string): SignatureSession {
  return {
    draft: emptyDraft(modesFor(role)[0] ?? "draw"),
    // A caregiver types their own name; everybody else signs under theirs.
    printedName: role === "caregiver" ? "" : signerName,
    problem: null,
  };
}

export function reduceSignature(session: SignatureSession, action: SignatureAction): SignatureSession {
  const { draft } = session;
  switch (action.type) {
    case "mode":
      return { ...session, problem: null, draft: { ...draft, mode: action.mode } };
    case "drawn":
      return { ...session, draft: { ...draft, drawn: action.png } };
    case "typed":
      return { ...session, draft: { ...draft, typed: action.text } };
    case "photo":
      return { ...session, problem: null, draft: { ...draft, photo: action.jpeg } };
    case "picture":
      return { ...session, problem: null, draft: { ...draft, picture: action.image } };
    case "problem":
      return { ...session, problem: action.problem };
    case "printed-name":
      return { ...session, printedName: action.name };
    case "clear":
      return { ...session, problem: null, draft: emptyDraft(draft.mode) };
  }
}

/** The image the chosen mode signs with, when it makes one (draw, camera, image). */
export function signatureImageOf(draft: SignatureDraft): Blob | null {
  if (draft.mode === "draw") return draft.drawn;
  if (draft.mode === "camera") return draft.photo;
  if (draft.mode === "image") return draft.picture;
  return null;
}

/** Whether Sign may be pressed: the mode has content and the printed name is given. */
export function maySign(session: SignatureSession): boolean {
  return canSign(session.draft) && session.printedName.trim() !== "";
}

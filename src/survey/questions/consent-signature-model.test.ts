import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import { schemaDefinition, questionIn } from "../../../core/survey-engine/test-fixtures.ts";
import {
  canSign,
  emptyDraft,
  isoWithOffset,
  modesFor,
  needsPassword,
  signatureEntry,
  signatureFileName,
  signatureFileOf,
  signatureImageProblem,
  signerRoleOf,
  type SignatureDraft,
  startSignature,
  reduceSignature,
  maySign,
  signatureImageOf,
} from "./consent-signature-model.ts";
import { SIGNATURE_MEANINGS } from "../../../core/contracts/consent-schemas.ts";

const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
const empty = new Blob([]);

describe("canSign: the Sign button is enabled only when the chosen mode has content", () => {
  const cases: [string, boolean, SignatureDraft][] = [
    ["draw, empty pad", false, emptyDraft("draw")],
    ["draw, a drawing", true, { ...emptyDraft("draw"), drawn: png }],
    ["draw, an empty blob", false, { ...emptyDraft("draw"), drawn: empty }],
    ["draw, only a typed name from the other mode", false, { ...emptyDraft("draw"), typed: "Ana" }],
    ["text, nothing typed", false, emptyDraft("text")],
    ["text, spaces only", false, { ...emptyDraft("text"), typed: "   " }],
    ["text, a name", true, { ...emptyDraft("text"), typed: "Ana Ruiz" }],
    ["text, only a drawing from the other mode", false, { ...emptyDraft("text"), drawn: png }],
    ["camera, no photo", false, emptyDraft("camera")],
    ["camera, a photo", true, { ...emptyDraft("camera"), photo: png }],
    ["camera, only a picture from the image mode", false, { ...emptyDraft("camera"), picture: png }],
    ["image, no picture", false, emptyDraft("image")],
    ["image, a picture", true, { ...emptyDraft("image"), picture: png }],
  ];
  // The blobs stay out of the test names: formatting a jsdom Blob does not end.
  it.each(cases)("%s → %s", (_name, expected, draft) => {
    expect(canSign(draft)).toBe(expected);
  });
});

describe("signatureImageProblem: .jpg .jpeg .png .svg of at most 2.5 MB", () => {
  it.each([
    ["signature.jpg", 1000, null],
    ["signature.JPEG", 1000, null],
    ["signature.png", IMAGE_MAX_BYTES, null],
    ["signature.svg", 2000, null],
    ["signature.gif", 1000, "file_type"],
    ["signature.pdf", 1000, "file_type"],
    ["signature", 1000, "file_type"],
    ["signature.png", IMAGE_MAX_BYTES + 1, "too_large"],
    ["signature.bmp", IMAGE_MAX_BYTES + 1, "file_type"],
  ] as const)("%s of %d bytes → %s", (name, size, problem) => {
    expect(signatureImageProblem({ name, size })).toBe(problem);
  });
});

describe("signer roles, modes and meanings", () => {
  const definition = schemaDefinition([
    { id: "p", type: "consent_signature", attributes: { signer_role: "participant" } },
    { id: "c", type: "consent_signature", attributes: { signer_role: "caregiver" } },
    { id: "k", type: "consent_signature", attributes: { signer_role: "clinro", user_type: "clinro" } },
    { id: "w", type: "consent_signature", attributes: { signer_role: "witness", user_type: "witness" } },
  ]);

  it.each([
    ["p", "participant", "Participant consent", false],
    ["c", "caregiver", "Legally authorised representative", false],
    ["k", "clinro", "Consent obtained by", true],
    ["w", "witness", "Witnessed by", true],
  ] as const)("question %s is signed by the %s: %s, password %s", (id, role, meaning, password) => {
    const signer = signerRoleOf(questionIn(definition, id));
    expect(signer).toBe(role);
    expect(SIGNATURE_MEANINGS[signer]).toBe(meaning);
    expect(needsPassword(signer)).toBe(password);
  });

  it("the clinician signs by drawing, typing or a photo; the others may also upload a picture", () => {
    expect(modesFor("clinro")).toEqual(["draw", "text", "camera"]);
    expect(modesFor("participant")).toEqual(["draw", "text", "camera", "image"]);
    expect(modesFor("caregiver")).toContain("image");
    expect(modesFor("witness")).toContain("image");
  });
});

describe("the answer entry", () => {
  it("holds the printed name, the value, the question, the mode and the device time with offset", () => {
    const signedAt = new Date("2026-11-22T10:15:30.000Z");
    const entry = signatureEntry({
      questionId: "ptp_sign",
      printedName: "Ana Ruiz",
      mode: "draw",
      value: "consent_1_2_ptp_sign_abc.png",
      signedAt,
    });
    expect(entry).toEqual({
      label: "Ana Ruiz",
      value: "consent_1_2_ptp_sign_abc.png",
      question: "ptp_sign",
      signature_type: "draw",
      signed_date: isoWithOffset(signedAt),
    });
    expect(entry.signed_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(entry.signed_date!)).toBe(signedAt.getTime());
    expect(signatureFileOf(entry)).toBe("consent_1_2_ptp_sign_abc.png");
    expect(signatureFileOf({ ...entry, signature_type: "text", value: "Ana Ruiz" })).toBeUndefined();
  });

  it("file names are safe for the upload call", () => {
    expect(signatureFileName({ studyId: 1, participantId: 7 }, "sign/ptp", "a b", "jpeg")).toBe(
      "consent_1_7_sign-ptp_a-b.jpeg",
    );
    expect(signatureFileName({ studyId: 1, participantId: 7 }, "q", "s", "png")).toMatch(/^[A-Za-z0-9_.-]+$/);
  });
});

describe("the signature session (SignatureControl's state, without React)", () => {
  const png = new Blob(["png"], { type: "image/png" });

  it("starts in the role's first mode, under the signer's name (a caregiver types theirs)", () => {
    expect(startSignature("clinro", "Carmen Ortiz")).toMatchObject({
      draft: { mode: "draw" },
      printedName: "Carmen Ortiz",
      problem: null,
    });
    expect(startSignature("caregiver", "Lucía Pérez").printedName).toBe("");
  });

  it("may sign once the chosen mode has content and the printed name is given", () => {
    let session = startSignature("caregiver", "");
    session = reduceSignature(session, { type: "drawn", png });
    expect(maySign(session)).toBe(false);
    session = reduceSignature(session, { type: "printed-name", name: "Ana Pérez" });
    expect(maySign(session)).toBe(true);
    expect(signatureImageOf(session.draft)).toBe(png);
    // Another mode holds nothing yet.
    session = reduceSignature(session, { type: "mode", mode: "text" });
    expect(maySign(session)).toBe(false);
    session = reduceSignature(session, { type: "typed", text: "Ana Pérez" });
    expect(maySign(session)).toBe(true);
    expect(signatureImageOf(session.draft)).toBeNull();
  });

  it("a file problem shows until the mode changes or an accepted image arrives; Clear keeps the mode", () => {
    let session = reduceSignature(startSignature("participant", "Lucía Pérez"), {
      type: "mode",
      mode: "image",
    });
    session = reduceSignature(session, { type: "problem", problem: "too_large" });
    expect(session.problem).toBe("too_large");
    session = reduceSignature(session, { type: "picture", image: png });
    expect(session.problem).toBeNull();
    session = reduceSignature(session, { type: "clear" });
    expect(session.draft).toEqual(emptyDraft("image"));
  });
});

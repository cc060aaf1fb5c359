import { describe, expect, it } from "vitest";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import {
  canonicalJson,
  signatureHash,
  verifyConsentSignatures,
  type SignedManifestation,
  type StoredSignature,
  type StoredSigning,
} from "./signature-hash.ts";

const record = (id: string, value: string): AnswerRecord => ({
  id,
  label: id,
  name: id,
  type: "text",
  required: false,
  state: "ANSWERED",
  answer: [{ label: value, value }],
  time_answered: "2026-11-20T10:00:00.000Z",
});

const manifestation = (questionId: string, name: string): SignedManifestation => ({
  questionId,
  role: "participant",
  meaning: "Participant consent",
  printedName: name,
  signatureType: "text",
  value: name,
  capturedAt: "2026-11-20T05:00:00-05:00",
  receivedAt: new Date("2026-11-20T10:00:05.000Z"),
  timeZone: "America/New_York",
});

/** Two signings of participant 7 (consent 3, version 2), hashed as the server stores them. */
function stored() {
  const signings: StoredSigning[] = [
    {
      id: 1,
      consentId: 3,
      participantId: 7,
      version: 2,
      records: [record("a", "yes"), record("sig", "Ana")],
    },
    { id: 2, consentId: 3, participantId: 7, version: 2, records: [record("wit", "Grace")] },
  ];
  const first = manifestation("sig", "Ana");
  const firstHash = signatureHash({
    consentId: 3,
    consentVersion: 2,
    participantId: 7,
    records: signings[0]!.records,
    earlierSignatureHashes: [],
    signature: first,
  });
  const second = { ...manifestation("wit", "Grace"), role: "witness", meaning: "Witnessed by" };
  const secondHash = signatureHash({
    consentId: 3,
    consentVersion: 2,
    participantId: 7,
    records: [...signings[0]!.records, ...signings[1]!.records],
    earlierSignatureHashes: [firstHash],
    signature: second,
  });
  const signatures: StoredSignature[] = [
    { ...first, id: 10, signingId: 1, consentId: 3, participantId: 7, version: 2, hash: firstHash },
    { ...second, id: 11, signingId: 2, consentId: 3, participantId: 7, version: 2, hash: secondHash },
  ];
  return { signings, signatures };
}

const verify = (data: ReturnType<typeof stored>, participantId = 7) =>
  verifyConsentSignatures({ consentId: 3, consentVersion: 2, participantId, ...data });

describe("canonical JSON", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: "x" }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[2,1]},"b":1}',
    );
  });

  it("gives the same hash whatever the key order", () => {
    const one = record("q", "v");
    const reordered = Object.fromEntries(Object.entries(one).reverse()) as AnswerRecord;
    const hash = (records: AnswerRecord[]) =>
      signatureHash({
        consentId: 1,
        consentVersion: 1,
        participantId: 1,
        records,
        earlierSignatureHashes: [],
        signature: manifestation("q", "v"),
      });
    expect(hash([reordered])).toBe(hash([one]));
    expect(hash([one])).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("verifyConsentSignatures", () => {
  it("verifies untouched signings", () => {
    const result = verify(stored());
    expect([...result.verified.values()]).toEqual([true, true]);
    expect(result.allVerified).toBe(true);
  });

  it("fails every signature whose content covers a changed record", () => {
    const data = stored();
    data.signings[0]!.records[0]!.answer[0]!.value = "no";
    const result = verify(data);
    expect(result.verified.get(10)).toBe(false);
    expect(result.verified.get(11)).toBe(false);
    expect(result.allVerified).toBe(false);
  });

  it("fails a changed manifestation (printed name)", () => {
    const data = stored();
    data.signatures[1]!.printedName = "Someone Else";
    const result = verify(data);
    expect(result.verified.get(10)).toBe(true);
    expect(result.verified.get(11)).toBe(false);
  });

  it("fails a signature moved onto another participant's record", () => {
    const data = stored();
    const moved = {
      ...data,
      signings: data.signings.map((signing) => ({ ...signing, participantId: 8 })),
      signatures: data.signatures.map((signature) => ({ ...signature, participantId: 8 })),
    };
    const result = verify(moved, 8);
    expect(result.allVerified).toBe(false);
    expect([...result.verified.values()]).toEqual([false, false]);
  });

  it("fails a signature pointing at a signing that is not the participant's", () => {
    const data = stored();
    data.signatures[0]!.signingId = 99;
    expect(verify(data).verified.get(10)).toBe(false);
  });

  it("does not call an unsigned record verified", () => {
    expect(verify({ signings: [], signatures: [] }).allVerified).toBe(false);
  });
});

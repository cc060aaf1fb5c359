import { describe, expect, it } from "vitest";
import { consentSubmissionBody, type ConsentSigning } from "../../../core/contracts/consent-schemas.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { consentSession, startConsentFlow } from "../../../core/survey-engine/consent-filter.ts";
import { completeStep, type FlowState } from "../../../core/survey-engine/flow.ts";
import { FIXED_NOW, schemaDefinition } from "../../../core/survey-engine/test-fixtures.ts";
import { signatureEntry } from "../../survey/questions/consent-signature-model.ts";
import { consentSubmissionWrites, holdsStaffSignature } from "./submit-consent.ts";

const definition = schemaDefinition(
  [
    { id: "welcome", type: "prompt", label: "Welcome" },
    {
      id: "decision",
      type: "select_one",
      label: "Agree?",
      attributes: { required: true, consent_decision: true },
      choices: { agree: { label: "Agree" }, decline: { label: "Decline", declines: true } },
    },
    {
      id: "participant_signature",
      type: "consent_signature",
      label: "Participant",
      attributes: { required: true, signer_role: "participant" },
    },
    {
      id: "clinician_signature",
      type: "consent_signature",
      label: "Clinician",
      attributes: { signer_role: "clinro", user_type: "clinro" },
    },
    {
      id: "witness_signature",
      type: "consent_signature",
      label: "Witness",
      attributes: { signer_role: "witness", user_type: "witness" },
    },
  ],
  { type: "CONSENT", consent_id: 4, consent_version: 2, version: 2 },
);

const signing: ConsentSigning = {
  kid: "k1",
  password_ciphertext: "YWJj",
  captured_at: "2026-11-22T11:00:00+01:00",
  time_zone: "Europe/Madrid",
};

const drawn = new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" });

function walk(flow: FlowState, steps: Record<string, AnswerEntry[]>[], def = definition): FlowState {
  return steps.reduce((state, answers) => completeStep(def, state, answers, FIXED_NOW), flow);
}

function clinicianSession() {
  const session = consentSession(definition, "clinician", []);
  const flow = walk(startConsentFlow(session, FIXED_NOW), [
    {},
    { decision: [{ label: "Agree", value: "agree", choice_id: "agree" }] },
    {
      participant_signature: [
        signatureEntry({
          questionId: "participant_signature",
          printedName: "Ana Ruiz",
          mode: "draw",
          value: "consent_1_7_participant_signature_a.png",
          signedAt: FIXED_NOW,
        }),
      ],
    },
    {
      clinician_signature: [
        signatureEntry({
          questionId: "clinician_signature",
          printedName: "Dr Coordinator",
          mode: "text",
          value: "Dr Coordinator",
          signedAt: FIXED_NOW,
        }),
      ],
    },
  ]);
  return { session, flow };
}

const common = {
  consentDefinition: definition,
  earlierRecords: [],
  consentId: 4,
  consentVersion: 2,
  participantId: 7,
  draftKey: "draft",
  label: "Main consent: Ana Ruiz",
  now: FIXED_NOW,
  browserInfo: "test",
};

describe("consentSubmissionWrites", () => {
  it("a clinician session: the drawn signature's upload, then the consent through the clinician endpoint", () => {
    const { session, flow } = clinicianSession();
    const writes = consentSubmissionWrites({
      ...common,
      definition: session.definition,
      flow,
      readOnlyIds: session.readOnlyIds,
      files: new Map([["consent_1_7_participant_signature_a.png", drawn]]),
      asWitness: false,
      signing,
    });
    expect(writes.uploads).toHaveLength(1);
    const upload = writes.uploads[0]!;
    expect(upload.request.path).toBe("/control/file/upload");
    expect(upload.request.headers).toEqual({ version: "009" });
    expect(upload.request.body).toMatchObject({
      type: "multipart",
      fields: {
        file_name: "consent_1_7_participant_signature_a.png",
        module_name: "consent",
        participant_id: "7",
      },
    });
    expect(writes.consent.kind).toBe("consent");
    expect(writes.consent.request.path).toBe("/control/v2/clinro/participant/7/consent");
    expect(writes.consent.request.headers).toEqual({ version: "010" });
    expect(writes.body.records.map((record) => record.id)).toEqual([
      "welcome",
      "decision",
      "participant_signature",
      "clinician_signature",
    ]);
    expect(writes.body.signing).toEqual(signing);
    // The body is what the server's contract accepts.
    expect(consentSubmissionBody.safeParse(writes.body).success).toBe(true);
    expect(JSON.stringify(writes.body)).not.toContain("DemoPass");
    // The witness has yet to sign: the consent is not complete with this session.
    expect(writes.consent.consent).toEqual({ id: 4, completes: false });
  });

  it("a witness session sends only its own records, through the witness endpoint", () => {
    const { flow: earlier } = clinicianSession();
    const session = consentSession(definition, "witness", earlier.records);
    const flow = walk(startConsentFlow(session, FIXED_NOW), [
      {},
      {},
      {},
      {},
      {
        witness_signature: [
          signatureEntry({
            questionId: "witness_signature",
            printedName: "Wendy Witness",
            mode: "text",
            value: "Wendy Witness",
            signedAt: FIXED_NOW,
          }),
        ],
      },
    ]);
    const writes = consentSubmissionWrites({
      ...common,
      definition: session.definition,
      consentDefinition: definition,
      earlierRecords: earlier.records,
      flow,
      readOnlyIds: session.readOnlyIds,
      files: new Map(),
      asWitness: true,
      signing,
    });
    expect(writes.uploads).toEqual([]);
    expect(writes.consent.request.path).toBe("/control/v2/witness/participant/7/consent");
    expect(writes.body.records.map((record) => record.id)).toEqual(["witness_signature"]);
    // With the earlier session's signatures, the witness's completes the consent.
    expect(writes.consent.consent).toEqual({ id: 4, completes: true });
  });

  it("a staff signature without its password proof is not queued", () => {
    const { session, flow } = clinicianSession();
    expect(() =>
      consentSubmissionWrites({
        ...common,
        definition: session.definition,
        flow,
        readOnlyIds: session.readOnlyIds,
        files: new Map([["consent_1_7_participant_signature_a.png", drawn]]),
        asWitness: false,
        signing: undefined,
      }),
    ).toThrow(/password/);
  });

  it("a signature image missing from the device is not silently dropped", () => {
    const { session, flow } = clinicianSession();
    expect(() =>
      consentSubmissionWrites({
        ...common,
        definition: session.definition,
        flow,
        readOnlyIds: session.readOnlyIds,
        files: new Map(),
        asWitness: false,
        signing,
      }),
    ).toThrow(/missing/);
  });

  it("holdsStaffSignature: only signed clinician or witness signatures count", () => {
    const { flow } = clinicianSession();
    expect(holdsStaffSignature(definition, flow.records)).toBe(true);
    expect(
      holdsStaffSignature(
        definition,
        flow.records.filter((r) => r.id !== "clinician_signature"),
      ),
    ).toBe(false);
  });
});

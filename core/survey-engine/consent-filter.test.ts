import { describe, expect, it } from "vitest";
import type { AnswerRecord } from "../contracts/survey-answers.ts";
import {
  consentSession,
  consentViewerOf,
  isHiddenFromViewer,
  sessionRecords,
  startConsentFlow,
  type ConsentViewer,
} from "./consent-filter.ts";
import { currentStepId, progressOf, stepsOf } from "./flow.ts";
import { FIXED_NOW, questionIn, schemaDefinition } from "./test-fixtures.ts";

const consent = schemaDefinition(
  [
    { id: "intro", type: "prompt", label: "Read the consent" },
    { id: "decision", type: "select_one", label: "Do you agree?", choices: { yes: { label: "Yes" } } },
    { id: "ptp_sign", type: "consent_signature", attributes: { signer_role: "participant", required: true } },
    {
      id: "clinro_note",
      type: "text",
      attributes: { user_type: "clinro" },
      sibling_id: "staff",
    },
    {
      id: "witness_note",
      type: "text",
      attributes: { user_type: "witness" },
      sibling_id: "staff",
    },
    {
      id: "clinro_sign",
      type: "consent_signature",
      attributes: { signer_role: "clinro", user_type: "clinro", required: true },
    },
    {
      id: "witness_sign",
      type: "consent_signature",
      attributes: { signer_role: "witness", user_type: "witness", required: true },
    },
  ],
  {
    type: "CONSENT",
    consent_id: 1,
    consent_version: 1,
    siblings: { staff: ["clinro_note", "witness_note"] },
  },
);

function answered(id: string, value = "x"): AnswerRecord {
  return {
    id,
    label: id,
    name: id,
    type: "text",
    required: false,
    state: "ANSWERED",
    answer: [{ label: value, value }],
    time_answered: FIXED_NOW.toISOString(),
  };
}

describe("consentViewerOf", () => {
  it.each([
    ["11", "clinician"],
    ["12", "clinician"],
    ["13", "clinician"],
    ["16", "clinician"],
    [" 16 ", "clinician"],
    ["Impartial Witness", "witness"],
    ["impartial witness", "witness"],
    ["14", "other"],
    ["administrator", "other"],
    [undefined, "other"],
  ] as const)("role %s is a %s", (role, viewer) => {
    expect(consentViewerOf(role)).toBe(viewer);
  });
});

describe("isHiddenFromViewer", () => {
  const none = new Set<string>();
  it.each<[string, ConsentViewer, boolean]>([
    // A witness does not see unanswered clinician questions.
    ["clinro_sign", "witness", true],
    ["clinro_note", "witness", true],
    ["witness_sign", "witness", false],
    // A clinician does not see unanswered witness questions.
    ["witness_sign", "clinician", true],
    ["witness_note", "clinician", true],
    ["clinro_sign", "clinician", false],
    // Participant questions are everyone's.
    ["ptp_sign", "clinician", false],
    ["ptp_sign", "witness", false],
    ["decision", "other", false],
    // A role that is neither sees neither staff side's open questions.
    ["clinro_sign", "other", true],
    ["witness_sign", "other", true],
  ])("%s for a %s: hidden %s", (questionId, viewer, hidden) => {
    expect(isHiddenFromViewer(questionIn(consent, questionId), viewer, none)).toBe(hidden);
  });

  it.each<[string, ConsentViewer]>([
    ["clinro_sign", "witness"],
    ["witness_sign", "clinician"],
    ["clinro_sign", "other"],
  ])("an answered %s is shown to a %s", (questionId, viewer) => {
    expect(isHiddenFromViewer(questionIn(consent, questionId), viewer, new Set([questionId]))).toBe(false);
  });
});

describe("consentSession", () => {
  it("a clinician walks every question but the witness ones", () => {
    const session = consentSession(consent, consentViewerOf("16"), []);
    expect(session.definition.order).toEqual(["intro", "decision", "ptp_sign", "clinro_note", "clinro_sign"]);
    expect(session.definition.siblings).toEqual({ staff: ["clinro_note"] });
    expect(stepsOf(session.definition).map((step) => step.id)).toEqual([
      "intro",
      "decision",
      "ptp_sign",
      "staff",
      "clinro_sign",
    ]);
    // Progress: 1 of (question count + 1).
    expect(progressOf(session.definition, startConsentFlow(session, FIXED_NOW))).toEqual({
      current: 1,
      total: 6,
    });
    expect(session.readOnlyIds.size).toBe(0);
  });

  it("a witness sees the answered questions read-only and its own, not the open clinician ones", () => {
    const records = [answered("intro"), answered("decision"), answered("ptp_sign")];
    const session = consentSession(consent, "witness", records);
    expect(session.definition.order).toEqual([
      "intro",
      "decision",
      "ptp_sign",
      "witness_note",
      "witness_sign",
    ]);
    expect([...session.readOnlyIds]).toEqual(["intro", "decision", "ptp_sign"]);
    expect(session.prefilled.map((record) => record.id)).toEqual(["intro", "decision", "ptp_sign"]);
  });

  it("a witness after the clinician signed sees the clinician's signature, read-only", () => {
    const records = [answered("decision"), answered("ptp_sign"), answered("clinro_sign")];
    const session = consentSession(consent, "witness", records);
    expect(session.definition.order).toContain("clinro_sign");
    expect(session.definition.order).not.toContain("clinro_note");
    expect(session.readOnlyIds.has("clinro_sign")).toBe(true);
  });

  it("a prompt an earlier session read is read-only too: it is not sent again", () => {
    const read: AnswerRecord = { ...answered("intro"), type: "prompt", state: "SKIPPED", answer: [] };
    const session = consentSession(consent, "witness", [read, answered("decision")]);
    expect([...session.readOnlyIds].sort()).toEqual(["decision", "intro"]);
    // Read, not answered: it does not make another staff side's question visible.
    expect(session.definition.order).not.toContain("clinro_sign");
  });

  it("skipped server records of answerable questions and records of unknown questions are not pre-filled", () => {
    const skipped: AnswerRecord = { ...answered("decision"), state: "SKIPPED", answer: [] };
    const session = consentSession(consent, "clinician", [skipped, answered("gone")]);
    expect(session.prefilled).toEqual([]);
    expect(session.readOnlyIds.size).toBe(0);
  });

  it.each<[ConsentViewer, string]>([
    ["clinician", "clinro_sign"],
    ["witness", "witness_sign"],
  ])(
    "a %s's own open signature is required in their session, however the definition marks it",
    (viewer, own) => {
      const optional = {
        ...consent,
        questions: Object.fromEntries(
          Object.entries(consent.questions).map(([id, question]) => [
            id,
            { ...question, attributes: { ...question.attributes, required: false } },
          ]),
        ),
      };
      const records = [answered("decision"), answered("ptp_sign")];
      const session = consentSession(optional, viewer, records);
      const requiredIds = Object.values(session.definition.questions)
        .filter((question) => question.attributes.required)
        .map((question) => question.id);
      expect(requiredIds).toEqual([own]);
      // Signed by an earlier session: read-only, nothing left to require.
      const signed = consentSession(optional, viewer, [...records, answered(own)]);
      expect(signed.definition.questions[own]!.attributes.required).toBe(false);
      // A viewer who may sign for neither side requires nothing of the staff.
      const other = consentSession(optional, "other", records);
      expect(Object.values(other.definition.questions).some((question) => question.attributes.required)).toBe(
        false,
      );
    },
  );

  it("the pre-filled records are copies: the flow cannot change the server's answers", () => {
    const record = answered("decision");
    const session = consentSession(consent, "clinician", [record]);
    session.prefilled[0]!.answer[0]!.value = "changed";
    expect(record.answer[0]!.value).toBe("x");
  });
});

describe("startConsentFlow and sessionRecords", () => {
  it("starts with the earlier answers in place and sends only this session's records", () => {
    const session = consentSession(consent, "clinician", [answered("intro"), answered("decision")]);
    const flow = startConsentFlow(session, FIXED_NOW);
    expect(currentStepId(flow)).toBe("intro");
    expect(flow.records.map((record) => record.id)).toEqual(["intro", "decision"]);
    const mine = [...flow.records, answered("ptp_sign"), answered("clinro_sign")];
    expect(sessionRecords(mine, session.readOnlyIds).map((record) => record.id)).toEqual([
      "ptp_sign",
      "clinro_sign",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { demoConsentJson } from "../seed/demo-consents.ts";
import { consentStatusOf, mergeRecords } from "../../core/survey-engine/consent-status.ts";

const parsed = parseSurveyDefinition(demoConsentJson("mdd301-main-consent.json"));
if (!parsed.ok) throw new Error("the demo consent does not parse");
const definition = parsed.definition;
const at = new Date("2026-11-20T10:00:00.000Z");

function record(questionId: string, entries: AnswerEntry[]): AnswerRecord {
  return makeRecord(definition.questions[questionId]!, entries, at);
}
const decision = (choice: "agree" | "decline") =>
  record("decision", [{ label: choice, value: choice, choice_id: choice }]);
const signature = (questionId: string, name: string) =>
  record(questionId, [
    {
      label: name,
      value: name,
      question: questionId,
      signature_type: "text",
      signed_date: "2026-11-20T05:00:00-05:00",
    },
  ]);

describe("consent status from who has signed what", () => {
  it("awaits the participant while nothing is signed", () => {
    expect(consentStatusOf(definition, [])).toBe("awaiting_participant");
    expect(consentStatusOf(definition, [decision("agree")])).toBe("awaiting_participant");
  });

  it("awaits the clinician once the participant signed, then the witness, then is complete", () => {
    const participant = [decision("agree"), signature("participant_signature", "Ana Núñez")];
    expect(consentStatusOf(definition, participant)).toBe("awaiting_clinro");
    const clinician = [...participant, signature("clinician_signature", "Carmen Ortiz")];
    expect(consentStatusOf(definition, clinician)).toBe("awaiting_witness");
    expect(consentStatusOf(definition, [...clinician, signature("witness_signature", "Grace Mensah")])).toBe(
      "complete",
    );
  });

  it("awaits the clinician before the witness when the witness signed first", () => {
    const records = [
      decision("agree"),
      signature("participant_signature", "Ana"),
      signature("witness_signature", "G"),
    ];
    expect(consentStatusOf(definition, records)).toBe("awaiting_clinro");
  });

  it("is declined when the decision's choice declines, whatever else is signed", () => {
    expect(consentStatusOf(definition, [decision("decline")])).toBe("declined");
    expect(consentStatusOf(definition, [decision("decline"), signature("clinician_signature", "C")])).toBe(
      "declined",
    );
  });

  it("does not count a signature its show-if hides", () => {
    const withCaregiver = parseSurveyDefinition({
      ...demoConsentJson("mdd301-genetic-substudy.json"),
      order: [
        "has_caregiver",
        "decision",
        "participant_signature",
        "caregiver_signature",
        "clinician_signature",
      ],
      questions: {
        ...(demoConsentJson("mdd301-genetic-substudy.json").questions as object),
        has_caregiver: {
          id: "has_caregiver",
          type: "select_one",
          label: "Does a legally authorised representative sign?",
          choices: { yes: { label: "Yes" }, no: { label: "No" } },
        },
        caregiver_signature: {
          id: "caregiver_signature",
          type: "consent_signature",
          label: "Representative",
          attributes: { signer_role: "caregiver" },
          logic: { show_if: [{ comparator: "is_selected", question: "has_caregiver", value: "yes" }] },
        },
      },
    });
    if (!withCaregiver.ok) throw new Error("test definition does not parse");
    const questions = withCaregiver.definition.questions;
    const signed = (id: string) =>
      makeRecord(
        questions[id]!,
        [{ label: "N", value: "N", signature_type: "text", signed_date: "2026-11-20T05:00:00Z" }],
        at,
      );
    const choose = (id: string, choice: string) =>
      makeRecord(questions[id]!, [{ label: choice, value: choice, choice_id: choice }], at);
    const base = [
      choose("decision", "agree"),
      signed("participant_signature"),
      signed("clinician_signature"),
    ];
    expect(consentStatusOf(withCaregiver.definition, [choose("has_caregiver", "no"), ...base])).toBe(
      "complete",
    );
    expect(consentStatusOf(withCaregiver.definition, [choose("has_caregiver", "yes"), ...base])).toBe(
      "awaiting_participant",
    );
  });

  it("merges signings latest per question", () => {
    const merged = mergeRecords([[decision("agree")], [decision("decline")]]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.answer[0]!.choice_id).toBe("decline");
  });
});

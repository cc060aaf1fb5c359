import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { i18n } from "../../i18n/i18n.ts";
import { AnsweredByNote, answeredBy } from "./answered-by.tsx";

const question = (type: string, userType?: "clinro" | "witness"): Question =>
  ({
    id: `${type}-${userType ?? "participant"}`,
    type,
    label: "A question",
    name: "a_question",
    attributes: { required: false, ...(userType ? { user_type: userType } : {}) },
  }) as Question;

const PARTICIPANT = "Lucía Núñez";
const signed = (role: "participant" | "caregiver" | "clinro" | "witness", printed_name: string) => ({
  role,
  printed_name,
});

describe("who gave a pre-filled consent answer", () => {
  it("a participant's question is the participant's answer, by their name", () => {
    expect(answeredBy(question("select_one"), PARTICIPANT, [signed("participant", "Lucía Núñez")])).toEqual({
      role: "participant",
      name: PARTICIPANT,
    });
    expect(answeredBy(question("text"), `  ${PARTICIPANT} `, [])).toEqual({
      role: "participant",
      name: PARTICIPANT,
    });
  });

  it("a caregiver who signed instead of the participant gave the participant's answers", () => {
    expect(answeredBy(question("select_one"), PARTICIPANT, [signed("caregiver", "Marta Núñez")])).toEqual({
      role: "caregiver",
      name: "Marta Núñez",
    });
    expect(
      answeredBy(question("select_one"), PARTICIPANT, [
        signed("participant", PARTICIPANT),
        signed("caregiver", "Marta Núñez"),
      ]),
    ).toEqual({ role: "participant", name: PARTICIPANT });
  });

  it("a staff question is its side's, named by that side's signature when there is one", () => {
    const signatures = [signed("participant", PARTICIPANT), signed("clinro", "Casey Coordinator")];
    expect(answeredBy(question("text", "clinro"), PARTICIPANT, signatures)).toEqual({
      role: "clinro",
      name: "Casey Coordinator",
    });
    expect(answeredBy(question("text", "witness"), PARTICIPANT, signatures)).toEqual({
      role: "witness",
      name: undefined,
    });
  });

  it("a signature (its manifestation names the signer) and a prompt (no answer) get no note", () => {
    expect(answeredBy(question("consent_signature"), PARTICIPANT, [])).toBeUndefined();
    expect(answeredBy(question("prompt"), PARTICIPANT, [])).toBeUndefined();
  });
});

describe("the note", () => {
  beforeEach(() => i18n.activate("en"));
  afterEach(cleanup);

  it.each([
    [{ role: "participant", name: PARTICIPANT }, "Answered by Lucía Núñez, the participant"],
    [{ role: "participant", name: undefined }, "Answered by the participant"],
    [
      { role: "caregiver", name: "Marta Núñez" },
      "Answered by Marta Núñez, the participant's legally authorised representative",
    ],
    [{ role: "clinro", name: "Casey Coordinator" }, "Answered by Casey Coordinator, who obtained consent"],
    [{ role: "clinro", name: undefined }, "Answered by the person who obtained consent"],
    [{ role: "witness", name: "Wendy Witness" }, "Answered by Wendy Witness, the impartial witness"],
  ] as const)("%o reads %s", (by, text) => {
    render(
      <I18nProvider i18n={i18n}>
        <AnsweredByNote by={by} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("answered-by").textContent).toBe(text);
  });
});

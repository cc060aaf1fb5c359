import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import { finalScoreValue, questionValue, scoreSurvey } from "./scores.ts";
import {
  choiceEntry,
  everyTypeAnswers,
  everyTypeDefinitionJson,
  lookupFor,
  questionIn,
  recordsFor,
  schemaDefinition,
  validDefinition,
  valueEntry,
} from "./test-fixtures.ts";

const definition = validDefinition(everyTypeDefinitionJson);
const q = (id: string) => questionIn(definition, id);
const recordOf = (id: string, entries: AnswerEntry[]) => recordsFor(definition, { [id]: entries })[0];

describe("the value a question gives a formula", () => {
  it.each([
    ["a select one question: the selected choice's score", "colour", [choiceEntry(q("colour"), "blue")], 3],
    ["a likert question: the selected choice's score", "mood", [choiceEntry(q("mood"), "l4")], 4],
    [
      "a select multiple question: the sum of the selected choices' scores",
      "symptoms",
      [choiceEntry(q("symptoms"), "headache"), choiceEntry(q("symptoms"), "fatigue")],
      5,
    ],
    ["an integer question: the number", "age", [valueEntry(30)], 30],
    ["a decimal question: the number", "weight", [valueEntry(70.5)], 70.5],
    ["a numeric rating scale: the number", "pain", [valueEntry(0)], 0],
    [
      "a matrix: the sum of the rows' column scores",
      "sleep",
      [choiceEntry(q("sleep"), "often", "fall_asleep"), choiceEntry(q("sleep"), "sometimes", "wake_night")],
      3,
    ],
    [
      "a multiple field: the sum of its number fields, not its text fields",
      "vitals",
      [valueEntry("120", "bp"), valueEntry(72, "hr"), valueEntry(36.5, "temp")],
      108.5,
    ],
    ["a text question: 0, it holds no number", "notes", [valueEntry("42")], 0],
    ["a date question: 0", "visit", [valueEntry("2026-11-20T00:00:00.000Z")], 0],
    ["a skipped question: 0", "age", [], 0],
    [
      "a half-answered matrix: 0 (it is skipped)",
      "sleep",
      [choiceEntry(q("sleep"), "often", "fall_asleep")],
      0,
    ],
  ] as const)("%s", (_name, id, entries, expected) => {
    expect(questionValue(q(id), recordOf(id, [...entries]))).toBe(expected);
  });

  it("is 0 for a question without a record", () => {
    expect(questionValue(q("age"), undefined)).toBe(0);
  });

  it("takes a choice's score from the definition, not from what the entry claims", () => {
    const claimed: AnswerEntry = { label: "Red", value: "red", choice_id: "red", score_value: 99 };
    expect(questionValue(q("colour"), recordOf("colour", [claimed]))).toBe(1);
  });

  it("is 0 for a choice without a score_value", () => {
    const plain = schemaDefinition([{ id: "pick", type: "select_one", choices: { a: { label: "A" } } }]);
    const record: AnswerRecord = recordsFor(plain, {
      pick: [{ label: "A", value: "a", choice_id: "a" }],
    })[0]!;
    expect(questionValue(questionIn(plain, "pick"), record)).toBe(0);
  });
});

function scored(
  formulas: Record<string, string>,
  answers: Readonly<Record<string, readonly AnswerEntry[]>> = {},
) {
  const withScores = schemaDefinition(
    [
      { id: "a", type: "integer" },
      { id: "b", type: "integer" },
      { id: "c", type: "decimal" },
    ],
    { scores: Object.entries(formulas).map(([id, formula]) => ({ id, name: id.toUpperCase(), formula })) },
  );
  const scores = scoreSurvey(withScores, lookupFor(recordsFor(withScores, answers)));
  return Object.fromEntries(scores.map((score) => [score.id, score.final_value]));
}

describe("scoring a survey", () => {
  const ab = { a: [valueEntry(10)], b: [valueEntry(3)] };

  it.each([
    ["substitutes question values", "{a} + {b}", ab, 13],
    ["makes a division by zero 0", "{a} / 0", ab, 0],
    ["makes 0 / 0 (NaN) 0", "{a} / ({b} - 3)", { a: [valueEntry(0)], b: [valueEntry(3)] }, 0],
    ["makes an infinite result 0", "-{a} / 0", ab, 0],
    ["rounds a result with more than 2 decimals to 2", "{a} / {b}", ab, 3.33],
    ["rounds 1.005 up to 1.01", "1.005", {}, 1.01],
    ["keeps a result with 2 decimals", "{c} * 2", { c: [valueEntry(1.1)] }, 2.2],
    ["counts an unanswered question as 0", "{a} + {b}", { a: [valueEntry(10)] }, 10],
    ["counts a skipped question as 0", "{a} + 1", { a: [] }, 1],
    [
      "counts answered questions, 0 included",
      "count_answered({a}, {b}, {c})",
      { a: [valueEntry(0)], c: [valueEntry(1)] },
      2,
    ],
    ["gives 0 for a formula that does not parse", "{a} +", ab, 0],
    ["gives 0 for a question the survey does not have", "{constructor} + {__proto__}", ab, 0],
  ] as const)("%s", (_name, formula, answers, expected) => {
    expect(scored({ s: formula }, answers).s).toBe(expected);
  });

  it("never gives -0", () => {
    expect(Object.is(scored({ s: "0 * -1" }).s, 0)).toBe(true);
    expect(Object.is(scored({ s: "-0.001" }).s, 0)).toBe(true);
    expect(Object.is(finalScoreValue(-0), 0)).toBe(true);
  });

  it("lets a score use the final (rounded) value of a score before it", () => {
    expect(
      scored(
        { third: "{a} / {b}", tripled: "{score:third} * 3" },
        { a: [valueEntry(10)], b: [valueEntry(3)] },
      ),
    ).toEqual({
      third: 3.33,
      tripled: 9.99,
    });
  });

  it("gives 0 for a score not computed yet", () => {
    expect(scored({ early: "{score:late} + 1", late: "5" })).toEqual({ early: 1, late: 5 });
  });

  it("keeps each score's fields and adds final_value", () => {
    const answers = everyTypeAnswers(definition);
    const scores = scoreSurvey(definition, lookupFor(recordsFor(definition, answers)));
    expect(scores).toEqual([
      { id: "total", name: "Total", formula: "sum({mood}, {pain}, {sleep})", final_value: 11 },
      { id: "half", name: "Half", formula: "{score:total} / 3", final_value: 3.67 },
    ]);
  });
});

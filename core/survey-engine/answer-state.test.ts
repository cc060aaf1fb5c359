import { describe, expect, it } from "vitest";
import type { AnswerEntry } from "../contracts/survey-answers.ts";
import { answerStateOf, isAnswered, makeRecord } from "./answer-state.ts";
import {
  choiceEntry,
  everyTypeDefinitionJson,
  FIXED_NOW,
  questionIn,
  schemaDefinition,
  validDefinition,
  valueEntry,
} from "./test-fixtures.ts";

const definition = validDefinition(everyTypeDefinitionJson);
const q = (id: string) => questionIn(definition, id);
const unordered = schemaDefinition([
  {
    id: "grid",
    type: "matrix",
    questions: { a: { id: "a", label: "A" }, b: { id: "b", label: "B" } },
    choices: { yes: { label: "Yes" } },
  },
  { id: "mystery", type: "colour_wheel" },
]);

type Case = { type: string; id: string; when: string; entries: AnswerEntry[]; answered: boolean };

const cases: Case[] = [
  { type: "text", id: "notes", when: "it holds text", entries: [valueEntry("hello")], answered: true },
  { type: "text", id: "notes", when: "it is empty", entries: [valueEntry("")], answered: false },
  { type: "text", id: "notes", when: "it holds only spaces", entries: [valueEntry("   ")], answered: false },
  { type: "text", id: "notes", when: "its value is null", entries: [valueEntry(null)], answered: false },
  { type: "text", id: "notes", when: "it has no entry", entries: [], answered: false },
  { type: "integer", id: "age", when: "it holds 0", entries: [valueEntry(0)], answered: true },
  { type: "decimal", id: "weight", when: "it holds 0.1", entries: [valueEntry(0.1)], answered: true },
  {
    type: "select one",
    id: "colour",
    when: "a choice is selected",
    entries: [choiceEntry(q("colour"), "red")],
    answered: true,
  },
  {
    type: "select one",
    id: "daily_feeling",
    when: "the selected choice scores 0",
    entries: [choiceEntry(q("daily_feeling"), "bad")],
    answered: true,
  },
  { type: "select multiple", id: "symptoms", when: "nothing is selected", entries: [], answered: false },
  {
    type: "matrix",
    id: "sleep",
    when: "every row has an answer",
    entries: [
      choiceEntry(q("sleep"), "often", "fall_asleep"),
      choiceEntry(q("sleep"), "never", "wake_night"),
    ],
    answered: true,
  },
  {
    type: "matrix",
    id: "sleep",
    when: "one row has no answer",
    entries: [choiceEntry(q("sleep"), "often", "fall_asleep")],
    answered: false,
  },
  {
    type: "matrix",
    id: "sleep",
    when: "an answer names no row",
    entries: [choiceEntry(q("sleep"), "often"), choiceEntry(q("sleep"), "never", "wake_night")],
    answered: false,
  },
  {
    type: "multiple field",
    id: "vitals",
    when: "every field has a value, 0 included",
    entries: [valueEntry("120/80", "bp"), valueEntry(0, "hr"), valueEntry(36.6, "temp")],
    answered: true,
  },
  {
    type: "multiple field",
    id: "vitals",
    when: "one field is empty",
    entries: [valueEntry("", "bp"), valueEntry(72, "hr"), valueEntry(36.6, "temp")],
    answered: false,
  },
  {
    type: "multiple field",
    id: "vitals",
    when: "one field is missing",
    entries: [valueEntry(72, "hr"), valueEntry(36.6, "temp")],
    answered: false,
  },
  {
    type: "datetime",
    id: "next_visit",
    when: "it holds a date and a time",
    entries: [valueEntry("2026-12-01T13:30:00.000Z")],
    answered: true,
  },
  {
    type: "datetime",
    id: "next_visit",
    when: "it holds only a date",
    entries: [valueEntry("2026-12-01")],
    answered: false,
  },
  {
    type: "datetime",
    id: "next_visit",
    when: "it holds no valid instant",
    entries: [valueEntry("2026-13-45T99:00")],
    answered: false,
  },
  {
    type: "date",
    id: "visit",
    when: "it holds a date",
    entries: [valueEntry("2026-11-20T00:00:00.000Z")],
    answered: true,
  },
  {
    type: "image capture",
    id: "photos",
    when: "it holds one photo",
    entries: [valueEntry("a.jpeg")],
    answered: true,
  },
  { type: "image capture", id: "photos", when: "it holds no photo", entries: [], answered: false },
  {
    type: "scribble",
    id: "drawing",
    when: "it holds a drawing",
    entries: [valueEntry("data:image/png;base64,AA==")],
    answered: true,
  },
];

describe("whether a question is answered", () => {
  it.each(
    cases.map(
      (c) =>
        [
          `${/^[aeiou]/.test(c.type) ? "an" : "a"} ${c.type} question is ${c.answered ? "answered" : "not answered"} when ${c.when}`,
          c,
        ] as const,
    ),
  )("%s", (_name, { id, entries, answered }) => {
    expect(isAnswered(q(id), entries)).toBe(answered);
  });

  it("finds a matrix's rows from its questions when it has no questions_order", () => {
    const grid = questionIn(unordered, "grid");
    const yes = (row: string) => ({ label: "Yes", value: "yes", choice_id: "yes", question: row });
    expect(isAnswered(grid, [yes("a"), yes("b")])).toBe(true);
    expect(isAnswered(grid, [yes("a")])).toBe(false);
  });

  it("treats a question of an unknown type as answered when an entry holds a value", () => {
    expect(isAnswered(questionIn(unordered, "mystery"), [valueEntry("teal")])).toBe(true);
    expect(isAnswered(questionIn(unordered, "mystery"), [])).toBe(false);
  });
});

describe("the answer state", () => {
  it.each([
    ["REQUIRED", "an introduction", "intro", []],
    ["ANSWERED", "a text holding text", "notes", [valueEntry("x")]],
    ["ANSWERED", "an integer holding 0", "age", [valueEntry(0)]],
    ["SKIPPED", "a text holding a space", "notes", [valueEntry(" ")]],
    ["SKIPPED", "a matrix with a row unanswered", "sleep", [choiceEntry(q("sleep"), "often", "fall_asleep")]],
  ] as const)("is %s for %s", (state, _what, id, entries) => {
    expect(answerStateOf(q(id), entries)).toBe(state);
  });
});

describe("the record of a completed question", () => {
  it("holds the question's id, label, name, type, required flag, the answer and when it was answered", () => {
    expect(makeRecord(q("colour"), [choiceEntry(q("colour"), "red")], FIXED_NOW)).toEqual({
      id: "colour",
      label: "Colour",
      name: "colour",
      type: "select_one",
      required: true,
      state: "ANSWERED",
      answer: [{ label: "Red", value: "red", choice_id: "red", score_value: 1 }],
      time_answered: "2026-11-22T10:00:00.000Z",
    });
  });

  it("uses the question's name when it has one", () => {
    const named = schemaDefinition([{ id: "hamd_01", type: "integer", name: "depressed_mood" }]);
    expect(makeRecord(questionIn(named, "hamd_01"), [valueEntry(2)], FIXED_NOW).name).toBe("depressed_mood");
  });

  it("keeps no entries and no time when the question is skipped", () => {
    const record = makeRecord(q("sleep"), [choiceEntry(q("sleep"), "often", "fall_asleep")], FIXED_NOW);
    expect(record.state).toBe("SKIPPED");
    expect(record.answer).toEqual([]);
    expect(record).not.toHaveProperty("time_answered");
  });

  it("marks an introduction REQUIRED, without a time", () => {
    const record = makeRecord(q("intro"), [], FIXED_NOW);
    expect(record.state).toBe("REQUIRED");
    expect(record).not.toHaveProperty("time_answered");
  });

  it("names the sibling group of a sibling question, and none otherwise", () => {
    expect(makeRecord(q("daily_comment"), [valueEntry("ok")], FIXED_NOW).sibling_id).toBe("daily");
    expect(makeRecord(q("notes"), [valueEntry("ok")], FIXED_NOW)).not.toHaveProperty("sibling_id");
  });

  it("copies the entries, so a later change to the screen's state does not change the record", () => {
    const entries = [valueEntry("first")];
    const record = makeRecord(q("notes"), entries, FIXED_NOW);
    entries[0]!.value = "changed";
    expect(record.answer[0]?.value).toBe("first");
  });
});

import { describe, expect, it } from "vitest";
import { everyTypeDefinitionJson } from "./test-fixtures.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
  type DefinitionProblem,
} from "./validate-definition.ts";

/** The fixture as plain JSON to break; any key can be read and written. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function problemsAfter(change: (json: Json) => void): DefinitionProblem[] {
  const json: Json = structuredClone(everyTypeDefinitionJson);
  change(json);
  const parsed = parseSurveyDefinition(json);
  return parsed.ok ? [] : parsed.problems;
}

describe("a valid definition", () => {
  it("parses, with the defaults filled in", () => {
    const parsed = parseSurveyDefinition(everyTypeDefinitionJson);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.definition.questions.notes?.attributes.required).toBe(false);
    expect(parsed.definition.questions.red_note?.logic?.operator).toBe("and");
  });

  // Vite reads the seed folder at build time: this test needs no file system.
  const seeded = import.meta.glob<unknown>("../../server/seed/instruments/*.json", {
    eager: true,
    import: "default",
  });
  it("finds the seeded instruments", () => {
    expect(Object.keys(seeded).length).toBeGreaterThan(0);
  });
  it.each(Object.entries(seeded))("the seeded instrument %s is valid", (_path, json) => {
    const parsed = parseSurveyDefinition(json);
    expect(parsed.ok ? [] : parsed.problems.map(formatDefinitionProblem)).toEqual([]);
  });

  it("may hold a question of a type the engine does not know", () => {
    expect(
      problemsAfter((json) => {
        json.questions.notes.type = "colour_wheel";
      }),
    ).toEqual([]);
  });

  it("may leave choices_order out", () => {
    expect(problemsAfter((json) => delete json.questions.colour.choices_order)).toEqual([]);
  });
});

type Case = [string, (json: Json) => void, DefinitionProblem];

const schemaCases: Case[] = [
  [
    "a question without a type",
    (json) => delete json.questions.notes.type,
    { question: "notes", field: "type", message: "Invalid input: expected string, received undefined" },
  ],
  [
    "a choices_order entry that is not a string",
    (json) => (json.questions.colour.choices_order[1] = 3),
    {
      question: "colour",
      field: "choices_order[1]",
      message: "Invalid input: expected string, received number",
    },
  ],
  [
    "a comparator the engine does not know",
    (json) => (json.questions.red_note.logic.show_if[0].comparator = "equals"),
    {
      question: "red_note",
      field: "logic.show_if[0].comparator",
      message: expect.stringContaining("Invalid option"),
    },
  ],
  [
    "a boolean_combine without its operator",
    (json) =>
      (json.questions.red_note.logic.show_if[0] = {
        comparator: "boolean_combine",
        terms: [{ comparator: "is_selected", question: "colour", value: "red" }],
      }),
    {
      question: "red_note",
      field: "logic.show_if[0].operator",
      message: expect.stringContaining("Invalid option"),
    },
  ],
  [
    "an empty order",
    (json) => (json.order = []),
    { field: "order", message: "must list at least one question" },
  ],
  [
    "a score without a formula",
    (json) => delete json.scores[1].formula,
    { field: "scores[1].formula", message: "Invalid input: expected string, received undefined" },
  ],
];

const crossCases: Case[] = [
  [
    "an id in order that is not a question",
    (json) => json.order.push("q9"),
    { field: "order[19]", message: '"q9" is not a question of this survey' },
  ],
  [
    "an id twice in order",
    (json) => json.order.push("notes"),
    { field: "order[19]", message: '"notes" appears more than once' },
  ],
  [
    "a question whose id differs from its key",
    (json) => (json.questions.notes.id = "remarks"),
    { question: "notes", field: "id", message: 'the id "remarks" differs from its key "notes"' },
  ],
  [
    "a choices_order entry that is not a choice",
    (json) => (json.questions.colour.choices_order[2] = "c9"),
    { question: "colour", field: "choices_order[2]", message: '"c9" is not one of its choices' },
  ],
  [
    "a choices_order that leaves a choice out",
    (json) => json.questions.colour.choices_order.pop(),
    {
      question: "colour",
      field: "choices_order",
      message: '"blue" is missing: it must list every one of its choices',
    },
  ],
  [
    "a questions_order entry that is not a row",
    (json) => json.questions.sleep.questions_order.push("snoring"),
    { question: "sleep", field: "questions_order[2]", message: '"snoring" is not one of its rows' },
  ],
  [
    "a select one question without choices",
    (json) => (json.questions.colour = { id: "colour", type: "select_one", attributes: { required: true } }),
    { question: "colour", field: "choices", message: "a select_one question needs choices" },
  ],
  [
    "a likert question with 4 choices",
    (json) => delete json.questions.mood.choices.l5,
    { question: "mood", field: "choices", message: "a likert question has 5 or 7 choices, not 4" },
  ],
  [
    "a matrix without rows",
    (json) => {
      delete json.questions.sleep.questions;
      delete json.questions.sleep.questions_order;
    },
    { question: "sleep", field: "questions", message: "a matrix needs rows" },
  ],
  [
    "a multiple field whose field has no type",
    (json) => delete json.questions.vitals.questions.hr.type,
    {
      question: "vitals",
      field: "questions.hr.type",
      message: "a field of a multiple field needs a type: text, integer or decimal",
    },
  ],
  [
    "a min above the max",
    (json) => (json.questions.age.attributes.min = 200),
    { question: "age", field: "attributes.min", message: "min (200) is greater than max (120)" },
  ],
  [
    "a field's min above its max",
    (json) => (json.questions.vitals.questions.hr.attributes.min = 300),
    {
      question: "vitals",
      field: "questions.hr.attributes.min",
      message: "min (300) is greater than max (220)",
    },
  ],
  [
    "a show-if term naming an unknown question",
    (json) => (json.questions.red_note.logic.show_if[0].question = "shade"),
    {
      question: "red_note",
      field: "logic.show_if[0].question",
      message: '"shade" is not a question of this survey',
    },
  ],
  [
    "a show-if term naming a later question",
    (json) => (json.questions.red_note.logic.show_if[0] = { comparator: "is_answered", question: "notes" }),
    {
      question: "red_note",
      field: "logic.show_if[0].question",
      message: '"notes" comes later in order, so its answer is not known when this question is reached',
    },
  ],
  [
    "a show-if term naming its own question",
    (json) =>
      (json.questions.red_note.logic.show_if[0] = { comparator: "is_answered", question: "red_note" }),
    {
      question: "red_note",
      field: "logic.show_if[0].question",
      message: "a question cannot depend on its own answer",
    },
  ],
  [
    "an is_selected term naming a choice the question does not have",
    (json) => (json.questions.red_note.logic.show_if[0].value = "purple"),
    {
      question: "red_note",
      field: "logic.show_if[0].value",
      message: '"purple" is not a choice of "colour"',
    },
  ],
  [
    "a term naming a matrix row that does not exist",
    (json) =>
      (json.questions.severe_pain.logic.show_if[0] = {
        comparator: "is_selected",
        question: "sleep",
        sub_question: "snoring",
        value: "often",
      }),
    {
      question: "severe_pain",
      field: "logic.show_if[0].sub_question",
      message: '"snoring" is not a row or field of "sleep"',
    },
  ],
  [
    "a term naming a row of a question without rows",
    (json) => (json.questions.severe_pain.logic.show_if[0].sub_question = "left"),
    {
      question: "severe_pain",
      field: "logic.show_if[0].sub_question",
      message: '"pain" is a numeric_rating_scale question: it has no rows or fields',
    },
  ],
  [
    "a nested term naming an unknown question",
    (json) =>
      (json.questions.severe_pain.logic.show_if[0] = {
        comparator: "boolean_combine",
        operator: "or",
        terms: [
          { comparator: "is_answered", question: "notes" },
          { comparator: "is_answered", question: "nowhere" },
        ],
      }),
    {
      question: "severe_pain",
      field: "logic.show_if[0].terms[1].question",
      message: '"nowhere" is not a question of this survey',
    },
  ],
  [
    "a comparison without a value",
    (json) => delete json.questions.severe_pain.logic.show_if[0].value,
    {
      question: "severe_pain",
      field: "logic.show_if[0].value",
      message: 'the comparator ">=" needs a value',
    },
  ],
  [
    "a comparison of a number question with a word",
    (json) => (json.questions.severe_pain.logic.show_if[0].value = "high"),
    { question: "severe_pain", field: "logic.show_if[0].value", message: '"high" is not a number' },
  ],
  [
    "a comparison of a date question with a date not written YYYY-MM-DD",
    (json) =>
      (json.questions.severe_pain.logic.show_if[0] = {
        comparator: ">",
        question: "visit",
        value: "31/01/2026",
      }),
    {
      question: "severe_pain",
      field: "logic.show_if[0].value",
      message: '"31/01/2026" is not a date: write it as YYYY-MM-DD',
    },
  ],
  [
    "a comparison of a time question with something not a time",
    (json) =>
      (json.questions.severe_pain.logic.show_if[0] = { comparator: ">", question: "wake", value: "25:00" }),
    {
      question: "severe_pain",
      field: "logic.show_if[0].value",
      message: '"25:00" is not a time: write it as HH:mm',
    },
  ],
  [
    "an ordering of true and false",
    (json) => (json.questions.severe_pain.logic.show_if[0].value = true),
    {
      question: "severe_pain",
      field: "logic.show_if[0].value",
      message: "true and false can only be compared with = and !=",
    },
  ],
  [
    "a sibling group listing an unknown question",
    (json) => json.siblings.daily.push("daily_mood"),
    { field: "siblings.daily[2]", message: '"daily_mood" is not a question of this survey' },
  ],
  [
    "a sibling whose sibling_id is another group",
    (json) => (json.questions.daily_comment.sibling_id = "evening"),
    {
      question: "daily_comment",
      field: "sibling_id",
      message: 'must be "daily", the sibling group that lists this question',
    },
  ],
  [
    "a question naming a sibling group that does not list it",
    (json) => (json.questions.notes.sibling_id = "daily"),
    { question: "notes", field: "sibling_id", message: 'sibling group "daily" does not list this question' },
  ],
  [
    "a sibling of a type that cannot be a sibling",
    (json) => {
      json.questions.daily_comment.type = "date";
    },
    {
      question: "daily_comment",
      field: "type",
      message: expect.stringContaining("a date question cannot be in a sibling group"),
    },
  ],
  [
    "siblings that do not follow each other in order",
    (json) => {
      json.order = json.order.filter((id: string) => id !== "daily_comment");
      json.order.splice(1, 0, "daily_comment");
    },
    {
      field: "siblings.daily",
      message: 'the questions of sibling group "daily" must follow each other in order',
    },
  ],
  [
    "a formula that does not parse",
    (json) => (json.scores[0].formula = "sum({mood}, {pain}"),
    {
      field: "scores[0].formula",
      message: 'at character 19: expected "," or ")" in the call of sum but found the end of the formula',
    },
  ],
  [
    "a formula naming a question the survey does not have",
    (json) => (json.scores[0].formula = "{mood} + {__proto__}"),
    { field: "scores[0].formula", message: "{__proto__} is not a question of this survey" },
  ],
  [
    "a formula using an identifier",
    (json) => (json.scores[0].formula = "constructor"),
    {
      field: "scores[0].formula",
      message: expect.stringContaining('at character 1: "constructor" is not a function'),
    },
  ],
  [
    "a formula naming a later score",
    (json) => (json.scores[0].formula = "{score:half} * 3"),
    {
      field: "scores[0].formula",
      message:
        "{score:half} is not computed before this score: a formula may use only the scores listed before it",
    },
  ],
  [
    "a formula naming its own score",
    (json) => (json.scores[1].formula = "{score:half}"),
    {
      field: "scores[1].formula",
      message: expect.stringContaining("{score:half} is not computed before this score"),
    },
  ],
  [
    "a formula naming an unknown score",
    (json) => (json.scores[1].formula = "{score:grand}"),
    { field: "scores[1].formula", message: "{score:grand} is not a score of this survey" },
  ],
  [
    "two scores with one id",
    (json) => (json.scores[1].id = "total"),
    { field: "scores[1].id", message: '"total" is the id of another score' },
  ],
  [
    "a version that is not a whole number",
    (json) => (json.version = "v2"),
    { field: "version", message: '"v2" is not a whole number; submissions name the version as one' },
  ],
];

describe("definition problems name the question and the field", () => {
  it.each([...schemaCases, ...crossCases])("reports %s", (_name, change, expected) => {
    expect(problemsAfter(change)).toContainEqual(expected);
  });

  it("reports every problem at once", () => {
    const problems = problemsAfter((json) => {
      json.questions.colour.choices_order[2] = "c9";
      json.scores[0].formula = "1 +";
    });
    expect(problems.map((problem) => problem.field)).toEqual([
      "choices_order[2]",
      "choices_order",
      "scores[0].formula",
    ]);
  });
});

describe("formatting a problem", () => {
  it.each([
    [
      { question: "q3", field: "choices_order[2]", message: '"c9" is not one of its choices' },
      'Question "q3", field "choices_order[2]": "c9" is not one of its choices',
    ],
    [
      { field: "order[1]", message: '"q9" is not a question of this survey' },
      'Field "order[1]": "q9" is not a question of this survey',
    ],
    [
      { field: "", message: "Invalid input: expected object, received string" },
      "Definition: Invalid input: expected object, received string",
    ],
  ])("formats %j as %s", (problem, text) => {
    expect(formatDefinitionProblem(problem)).toBe(text);
  });

  it("reports a definition that is not an object", () => {
    const parsed = parseSurveyDefinition("survey");
    expect(parsed.ok ? [] : parsed.problems.map(formatDefinitionProblem)).toEqual([
      "Definition: Invalid input: expected object, received string",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import type { Question, ShowIfTerm } from "../contracts/survey-definition.ts";
import { isShown } from "./show-if.ts";
import {
  choiceEntry,
  lookupFor,
  questionIn,
  recordsFor,
  schemaDefinition,
  valueEntry,
} from "./test-fixtures.ts";

/** Every kind of question a term can name, then the question whose logic is under test. */
const definition = schemaDefinition([
  {
    id: "colour",
    type: "select_one",
    choices: {
      red: { label: "Red", score_value: 1 },
      green: { label: "Green", score_value: 2 },
      blue: { label: "Blue", score_value: 3 },
      plain: { label: "Plain" },
    },
  },
  {
    id: "symptoms",
    type: "select_multiple",
    choices: {
      headache: { label: "Headache", score_value: 1 },
      nausea: { label: "Nausea", score_value: 2 },
      fatigue: { label: "Fatigue", score_value: 4 },
    },
  },
  {
    id: "mood",
    type: "likert",
    choices: Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`l${n}`, { label: `L${n}`, score_value: n }])),
  },
  { id: "age", type: "integer" },
  { id: "weight", type: "decimal" },
  { id: "pain", type: "numeric_rating_scale" },
  { id: "notes", type: "text" },
  { id: "visit", type: "date" },
  { id: "next_visit", type: "datetime" },
  { id: "wake", type: "time" },
  {
    id: "sleep",
    type: "matrix",
    questions: {
      fall_asleep: { id: "fall_asleep", label: "Falling asleep" },
      wake_night: { id: "wake_night", label: "Waking" },
    },
    choices: {
      never: { label: "Never", score_value: 0 },
      sometimes: { label: "Sometimes", score_value: 1 },
      often: { label: "Often", score_value: 2 },
    },
  },
  {
    id: "vitals",
    type: "multiple_field",
    questions: {
      bp: { id: "bp", label: "BP", type: "text" },
      hr: { id: "hr", label: "HR", type: "integer" },
      temp: { id: "temp", label: "Temp", type: "decimal" },
    },
  },
  { id: "consented", type: "yes_no_switch" },
  { id: "target", type: "text" },
]);

const q = (id: string) => questionIn(definition, id);
const choice = (questionId: string, choiceId: string, row?: string) =>
  choiceEntry(q(questionId), choiceId, row);

function targetWith(showIf: ShowIfTerm[], operator?: "and" | "or"): Question {
  return { ...q("target"), logic: { show_if: showIf, operator: operator ?? "and" } };
}

function shown(showIf: ShowIfTerm[], answers: Record<string, AnswerEntry[]>, operator?: "and" | "or") {
  return isShown(targetWith(showIf, operator), lookupFor(recordsFor(definition, answers)), definition);
}

type Case = { when: string; term: ShowIfTerm; answers: Record<string, AnswerEntry[]>; shown: boolean };

const term = (
  comparator: Extract<ShowIfTerm, { question: string }>["comparator"],
  question: string,
  value?: string | number | boolean,
  sub_question?: string,
): ShowIfTerm => ({ comparator, question, value, sub_question });

const red = { colour: [choice("colour", "red")] };
const green = { colour: [choice("colour", "green")] };
const sleepOftenNever = {
  sleep: [choice("sleep", "often", "fall_asleep"), choice("sleep", "never", "wake_night")],
};
const vitals = { vitals: [valueEntry("120/80", "bp"), valueEntry(80, "hr"), valueEntry(37.5, "temp")] };

const selectionCases: Case[] = [
  {
    when: "the named choice is selected",
    term: term("is_selected", "colour", "red"),
    answers: red,
    shown: true,
  },
  {
    when: "another choice is selected",
    term: term("is_selected", "colour", "red"),
    answers: green,
    shown: false,
  },
  {
    when: "the question is unanswered (is_selected)",
    term: term("is_selected", "colour", "red"),
    answers: {},
    shown: false,
  },
  {
    when: "the named choice is among several selected",
    term: term("is_selected", "symptoms", "fatigue"),
    answers: { symptoms: [choice("symptoms", "headache"), choice("symptoms", "fatigue")] },
    shown: true,
  },
  {
    when: "another choice than the named one is selected",
    term: term("is_not_selected", "colour", "red"),
    answers: green,
    shown: true,
  },
  {
    when: "the named choice is selected (is_not_selected)",
    term: term("is_not_selected", "colour", "red"),
    answers: red,
    shown: false,
  },
  {
    when: "the question is unanswered (is_not_selected)",
    term: term("is_not_selected", "colour", "red"),
    answers: {},
    shown: true,
  },
  {
    when: "the matrix row holds the named column",
    term: term("is_selected", "sleep", "often", "fall_asleep"),
    answers: sleepOftenNever,
    shown: true,
  },
  {
    when: "another matrix row holds the named column",
    term: term("is_selected", "sleep", "often", "wake_night"),
    answers: sleepOftenNever,
    shown: false,
  },
  {
    when: "the matrix row does not hold the named column (is_not_selected)",
    term: term("is_not_selected", "sleep", "often", "wake_night"),
    answers: sleepOftenNever,
    shown: true,
  },
];

const answeredCases: Case[] = [
  {
    when: "the text question is answered",
    term: term("is_answered", "notes"),
    answers: { notes: [valueEntry("x")] },
    shown: true,
  },
  {
    when: "the text question holds only spaces",
    term: term("is_answered", "notes"),
    answers: { notes: [valueEntry("  ")] },
    shown: false,
  },
  { when: "the question has no record", term: term("is_answered", "notes"), answers: {}, shown: false },
  {
    when: "the number question holds 0",
    term: term("is_answered", "age"),
    answers: { age: [valueEntry(0)] },
    shown: true,
  },
  {
    when: "the matrix is only half answered",
    term: term("is_answered", "sleep"),
    answers: { sleep: [choice("sleep", "often", "fall_asleep")] },
    shown: false,
  },
  {
    when: "the matrix row is answered",
    term: term("is_answered", "sleep", undefined, "wake_night"),
    answers: sleepOftenNever,
    shown: true,
  },
  {
    when: "the multiple field's field is answered",
    term: term("is_answered", "vitals", undefined, "hr"),
    answers: vitals,
    shown: true,
  },
  {
    when: "the text question was skipped",
    term: term("is_not_answered", "notes"),
    answers: { notes: [] },
    shown: true,
  },
  {
    when: "the question has no record (is_not_answered)",
    term: term("is_not_answered", "notes"),
    answers: {},
    shown: true,
  },
  {
    when: "the question is answered (is_not_answered)",
    term: term("is_not_answered", "notes"),
    answers: { notes: [valueEntry("x")] },
    shown: false,
  },
];

const numberCases: Case[] = [
  {
    when: "the integer is above the value",
    term: term(">", "age", 17),
    answers: { age: [valueEntry(30)] },
    shown: true,
  },
  {
    when: "the integer equals the value (>)",
    term: term(">", "age", 17),
    answers: { age: [valueEntry(17)] },
    shown: false,
  },
  {
    when: "the integer equals the value (>=)",
    term: term(">=", "age", 17),
    answers: { age: [valueEntry(17)] },
    shown: true,
  },
  {
    when: "the integer is below the value (<)",
    term: term("<", "age", 100),
    answers: { age: [valueEntry(30)] },
    shown: true,
  },
  {
    when: "the integer is 0 and the value 0 (=)",
    term: term("=", "age", 0),
    answers: { age: [valueEntry(0)] },
    shown: true,
  },
  {
    when: "the integer is 0 and the value 0 (!=)",
    term: term("!=", "age", 0),
    answers: { age: [valueEntry(0)] },
    shown: false,
  },
  {
    when: "the value is written as text",
    term: term("<", "age", "100"),
    answers: { age: [valueEntry(30)] },
    shown: true,
  },
  {
    when: "numbers compare as numbers, not text",
    term: term(">", "age", 9),
    answers: { age: [valueEntry(10)] },
    shown: true,
  },
  {
    when: "the decimal is at most the value",
    term: term("<=", "weight", 200),
    answers: { weight: [valueEntry(70.5)] },
    shown: true,
  },
  {
    when: "the decimal is above the value (<=)",
    term: term("<=", "weight", 70.4),
    answers: { weight: [valueEntry(70.5)] },
    shown: false,
  },
  {
    when: "the rating equals the value",
    term: term("=", "pain", 10),
    answers: { pain: [valueEntry(10)] },
    shown: true,
  },
  {
    when: "the rating differs from the value (=)",
    term: term("=", "pain", 10),
    answers: { pain: [valueEntry(9)] },
    shown: false,
  },
  {
    when: "the value is not a number",
    term: term(">", "age", "old"),
    answers: { age: [valueEntry(30)] },
    shown: false,
  },
  { when: "the number question is unanswered (!=)", term: term("!=", "age", 5), answers: {}, shown: false },
  {
    when: "the multiple field's integer field is above the value",
    term: term(">", "vitals", 60, "hr"),
    answers: vitals,
    shown: true,
  },
  {
    when: "the multiple field's decimal field is below the value (>=)",
    term: term(">=", "vitals", 38, "temp"),
    answers: vitals,
    shown: false,
  },
  {
    when: "the multiple field's text field equals the text",
    term: term("=", "vitals", "120/80", "bp"),
    answers: vitals,
    shown: true,
  },
];

const choiceCases: Case[] = [
  {
    when: "the selected choice scores at least the value",
    term: term(">=", "mood", 3),
    answers: { mood: [choice("mood", "l4")] },
    shown: true,
  },
  {
    when: "the selected choice scores below the value",
    term: term(">=", "mood", 3),
    answers: { mood: [choice("mood", "l2")] },
    shown: false,
  },
  {
    when: "the selected choice is the named one (=)",
    term: term("=", "colour", "red"),
    answers: red,
    shown: true,
  },
  {
    when: "the selected choice is not the named one (!=)",
    term: term("!=", "colour", "red"),
    answers: green,
    shown: true,
  },
  {
    when: "the selected choice is the named one (!=)",
    term: term("!=", "colour", "red"),
    answers: red,
    shown: false,
  },
  {
    when: "the selected choice scores more than the named choice",
    term: term(">", "colour", "red"),
    answers: green,
    shown: true,
  },
  {
    when: "the selected choice scores less than the named choice",
    term: term(">", "colour", "blue"),
    answers: green,
    shown: false,
  },
  {
    when: "the selected choice has no score_value",
    term: term(">=", "colour", 0),
    answers: { colour: [choice("colour", "plain")] },
    shown: false,
  },
  {
    when: "the question is unanswered (!= a choice)",
    term: term("!=", "colour", "red"),
    answers: {},
    shown: false,
  },
  {
    when: "the selected choices together score at least the value",
    term: term(">=", "symptoms", 5),
    answers: { symptoms: [choice("symptoms", "headache"), choice("symptoms", "fatigue")] },
    shown: true,
  },
  {
    when: "the matrix row's column scores the value",
    term: term(">=", "sleep", 2, "fall_asleep"),
    answers: sleepOftenNever,
    shown: true,
  },
  {
    when: "another matrix row's column scores less",
    term: term(">=", "sleep", 2, "wake_night"),
    answers: sleepOftenNever,
    shown: false,
  },
  {
    when: "the matrix's rows together score the value",
    term: term("=", "sleep", 2),
    answers: sleepOftenNever,
    shown: true,
  },
];

const dateCases: Case[] = [
  {
    when: "the answer is after the given date",
    term: term(">", "visit", "2026-01-31"),
    answers: { visit: [valueEntry("2026-02-01T00:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer is the given date (>)",
    term: term(">", "visit", "2026-01-31"),
    answers: { visit: [valueEntry("2026-01-31T00:00:00.000Z")] },
    shown: false,
  },
  {
    when: "the answer is the given date (=)",
    term: term("=", "visit", "2026-01-31"),
    answers: { visit: [valueEntry("2026-01-31T00:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer is before the given date",
    term: term("<", "visit", "2026-01-31"),
    answers: { visit: [valueEntry("2026-01-30T00:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer is in an earlier year, though later in the year",
    term: term("<", "visit", "2026-01-31"),
    answers: { visit: [valueEntry("2025-12-31T00:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the given date is not a date",
    term: term("<", "visit", "31/01/2026"),
    answers: { visit: [valueEntry("2025-12-31T00:00:00.000Z")] },
    shown: false,
  },
  {
    when: "the answer is after the given datetime",
    term: term(">", "next_visit", "2026-01-31T10:00:00Z"),
    answers: { next_visit: [valueEntry("2026-01-31T10:30:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer is after the given datetime in another offset",
    term: term(">", "next_visit", "2026-01-31T10:00:00+01:00"),
    answers: { next_visit: [valueEntry("2026-01-31T09:30:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer is the same instant as the given datetime",
    term: term("=", "next_visit", "2026-01-31T11:00:00+01:00"),
    answers: { next_visit: [valueEntry("2026-01-31T10:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the given datetime has no offset, which reads as UTC",
    term: term("=", "next_visit", "2026-01-31T10:00"),
    answers: { next_visit: [valueEntry("2026-01-31T10:00:00.000Z")] },
    shown: true,
  },
  {
    when: "the answer's time of day is after the given time, as written in its own offset",
    term: term(">", "wake", "14:00"),
    answers: { wake: [valueEntry("2026-11-22T14:30:00+01:00")] },
    shown: true,
  },
  {
    when: "the answer's time of day is before the given time",
    term: term("<", "wake", "07:00"),
    answers: { wake: [valueEntry("2026-11-22T06:45:00-05:00")] },
    shown: true,
  },
  {
    when: "the answer's time of day is the given time",
    term: term("=", "wake", "14:00"),
    answers: { wake: [valueEntry("2026-11-22T14:00:00+01:00")] },
    shown: true,
  },
  {
    when: "the answer's time of day is after the given 12 hour time",
    term: term(">", "wake", "2:00 PM"),
    answers: { wake: [valueEntry("2026-11-22T14:30:00+01:00")] },
    shown: true,
  },
  {
    when: "the answer's time of day is the given 12 hour midnight",
    term: term("=", "wake", "12:00 AM"),
    answers: { wake: [valueEntry("2026-11-22T00:00:00+01:00")] },
    shown: true,
  },
];

const otherCases: Case[] = [
  {
    when: "the answer is true and the value true",
    term: term("=", "consented", true),
    answers: { consented: [valueEntry(true)] },
    shown: true,
  },
  {
    when: "the answer is false and the value true",
    term: term("=", "consented", true),
    answers: { consented: [valueEntry(false)] },
    shown: false,
  },
  {
    when: "the answer is false and differs from true",
    term: term("!=", "consented", true),
    answers: { consented: [valueEntry(false)] },
    shown: true,
  },
  {
    when: "booleans are ordered",
    term: term(">", "consented", false),
    answers: { consented: [valueEntry(true)] },
    shown: false,
  },
  {
    when: "the text equals the value",
    term: term("=", "notes", "yes"),
    answers: { notes: [valueEntry("yes")] },
    shown: true,
  },
  {
    when: "the text differs only in case",
    term: term("=", "notes", "yes"),
    answers: { notes: [valueEntry("Yes")] },
    shown: false,
  },
  {
    when: "the text differs from the value",
    term: term("!=", "notes", "no"),
    answers: { notes: [valueEntry("yes")] },
    shown: true,
  },
  {
    when: "the term names a question the survey does not have",
    term: term("is_answered", "constructor"),
    answers: {},
    shown: false,
  },
];

describe("show-if comparators", () => {
  const cases = [
    ...selectionCases,
    ...answeredCases,
    ...numberCases,
    ...choiceCases,
    ...dateCases,
    ...otherCases,
  ];
  it.each(cases.map((c) => [`${c.shown ? "shows" : "hides"} the question when ${c.when}`, c] as const))(
    "%s",
    (_name, { term: showIf, answers, shown: expected }) => {
      expect(shown([showIf], answers)).toBe(expected);
    },
  );

  it("treats a skipped record that still holds entries as unanswered", () => {
    const skipped: AnswerRecord = {
      id: "notes",
      label: "",
      name: "notes",
      type: "text",
      required: false,
      state: "SKIPPED",
      answer: [valueEntry("left over")],
    };
    const lookup = lookupFor([skipped]);
    expect(isShown(targetWith([term("is_answered", "notes")]), lookup, definition)).toBe(false);
    expect(isShown(targetWith([term("=", "notes", "left over")]), lookup, definition)).toBe(false);
  });
});

describe("joining terms", () => {
  it("shows a question without logic, or with an empty show_if", () => {
    expect(isShown(q("target"), () => undefined, definition)).toBe(true);
    expect(shown([], {})).toBe(true);
  });

  it("shows the question only when every term holds, by default", () => {
    const terms = [term("is_selected", "colour", "red"), term(">", "age", 17)];
    expect(shown(terms, { ...red, age: [valueEntry(30)] })).toBe(true);
    expect(shown(terms, { ...red, age: [valueEntry(10)] })).toBe(false);
  });

  it("shows the question when one term holds and the operator is or", () => {
    const terms = [term("is_selected", "colour", "red"), term(">", "age", 17)];
    expect(shown(terms, { ...green, age: [valueEntry(30)] }, "or")).toBe(true);
    expect(shown(terms, { ...green, age: [valueEntry(10)] }, "or")).toBe(false);
  });

  const nested: ShowIfTerm = {
    comparator: "boolean_combine",
    operator: "or",
    terms: [
      {
        comparator: "boolean_combine",
        operator: "and",
        terms: [term("is_selected", "colour", "green"), term(">=", "pain", 8)],
      },
      term("<=", "mood", 1),
    ],
  };

  it.each(
    [
      { when: "green and strong pain", answers: { ...green, pain: [valueEntry(9)] }, shown: true },
      {
        when: "green and mild pain, mood neutral",
        answers: { ...green, pain: [valueEntry(5)], mood: [choice("mood", "l3")] },
        shown: false,
      },
      {
        when: "red and the lowest mood",
        answers: { ...red, pain: [valueEntry(9)], mood: [choice("mood", "l1")] },
        shown: true,
      },
      { when: "nothing answered", answers: {}, shown: false },
    ].map(
      (c) =>
        [`${c.shown ? "shows" : "hides"} the question for ${c.when} (nested boolean_combine)`, c] as const,
    ),
  )("%s", (_name, { answers, shown: expected }) => {
    expect(shown([nested], answers)).toBe(expected);
  });

  it("evaluates boolean_combine nested twenty levels deep", () => {
    let deep: ShowIfTerm = term("is_selected", "colour", "red");
    for (let level = 0; level < 20; level++) {
      deep = { comparator: "boolean_combine", operator: level % 2 === 0 ? "and" : "or", terms: [deep] };
    }
    expect(shown([deep], red)).toBe(true);
    expect(shown([deep], green)).toBe(false);
  });
});

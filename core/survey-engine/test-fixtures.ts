/**
 * Definitions and answers the engine's tests share. Test-only: nothing outside *.test.ts imports
 * this module.
 */
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import { makeRecord, type AnswerLookup } from "./answer-state.ts";
import { surveyDefinition, type Question, type SurveyDefinition } from "../contracts/survey-definition.ts";
import { parseSurveyDefinition, formatDefinitionProblem } from "./validate-definition.ts";

export const FIXED_NOW = new Date("2026-11-22T10:00:00.000Z");

/** A question as written in a definition file: id and type, the rest optional. */
export type QuestionInput = { id: string; type: string } & Record<string, unknown>;

/** Parses a definition with the schema only (defaults filled, no cross-checks). */
export function schemaDefinition(
  questions: QuestionInput[],
  extra: Record<string, unknown> = {},
): SurveyDefinition {
  return surveyDefinition.parse({
    id: "fixture",
    type: "CLINRO",
    version: 3,
    order: questions.map((question) => question.id),
    questions: Object.fromEntries(questions.map((question) => [question.id, question])),
    ...extra,
  });
}

/** Parses a definition with every check; fails the test with the problems when it is invalid. */
export function validDefinition(json: unknown): SurveyDefinition {
  const parsed = parseSurveyDefinition(json);
  if (!parsed.ok) throw new Error(parsed.problems.map(formatDefinitionProblem).join("\n"));
  return parsed.definition;
}

export function questionIn(definition: SurveyDefinition, id: string): Question {
  const question = definition.questions[id];
  if (!question) throw new Error(`the fixture has no question ${id}`);
  return question;
}

/** The entry of a chosen choice, as the select components make it. */
export function choiceEntry(question: Question, choiceId: string, row?: string): AnswerEntry {
  const choice = question.choices?.[choiceId];
  if (!choice) throw new Error(`${question.id} has no choice ${choiceId}`);
  const entry: AnswerEntry = { label: choice.label, value: choiceId, choice_id: choiceId };
  if (choice.score_value !== undefined) entry.score_value = choice.score_value;
  if (row !== undefined) entry.question = row;
  return entry;
}

export function valueEntry(value: AnswerEntry["value"], subQuestion?: string): AnswerEntry {
  const entry: AnswerEntry = { label: String(value), value };
  if (subQuestion !== undefined) entry.question = subQuestion;
  return entry;
}

/** Records made from entries per question id, as the flow makes them. */
export function recordsFor(
  definition: SurveyDefinition,
  answers: Readonly<Record<string, readonly AnswerEntry[]>>,
): AnswerRecord[] {
  return Object.entries(answers).map(([id, entries]) =>
    makeRecord(questionIn(definition, id), entries, FIXED_NOW),
  );
}

export function lookupFor(records: readonly AnswerRecord[]): AnswerLookup {
  const byId = new Map(records.map((record) => [record.id, record]));
  return (questionId) => byId.get(questionId);
}

const likertChoices = Object.fromEntries(
  ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"].map((label, index) => [
    `l${index + 1}`,
    { label, score_value: index + 1 },
  ]),
);

/** A definition with one question of every answerable type, two branches and two scores. */
export const everyTypeDefinitionJson = {
  id: "every-type",
  type: "CLINRO",
  title: "Every type",
  version: 3,
  url: "/studies/7/instruments/5/every-type",
  order: [
    "intro",
    "colour",
    "red_note",
    "symptoms",
    "mood",
    "age",
    "weight",
    "pain",
    "notes",
    "visit",
    "next_visit",
    "wake",
    "sleep",
    "vitals",
    "photos",
    "drawing",
    "daily_feeling",
    "daily_comment",
    "severe_pain",
  ],
  questions: {
    intro: { id: "intro", type: "introduction", label: "Welcome" },
    colour: {
      id: "colour",
      type: "select_one",
      label: "Colour",
      attributes: { required: true },
      choices: {
        red: { label: "Red", score_value: 1 },
        green: { label: "Green", score_value: 2 },
        blue: { label: "Blue", score_value: 3 },
      },
      choices_order: ["red", "green", "blue"],
    },
    red_note: {
      id: "red_note",
      type: "text",
      label: "Why red?",
      attributes: { required: true },
      logic: { show_if: [{ comparator: "is_selected", question: "colour", value: "red" }] },
    },
    symptoms: {
      id: "symptoms",
      type: "select_multiple",
      label: "Symptoms",
      choices: {
        headache: { label: "Headache", score_value: 1 },
        nausea: { label: "Nausea", score_value: 2 },
        fatigue: { label: "Fatigue", score_value: 4 },
      },
    },
    mood: { id: "mood", type: "likert", label: "Mood", choices: likertChoices },
    age: { id: "age", type: "integer", label: "Age", attributes: { required: true, min: 0, max: 120 } },
    weight: { id: "weight", type: "decimal", label: "Weight", attributes: { min: 0, max: 300 } },
    pain: { id: "pain", type: "numeric_rating_scale", label: "Pain" },
    notes: { id: "notes", type: "text", label: "Notes" },
    visit: { id: "visit", type: "date", label: "Last visit" },
    next_visit: { id: "next_visit", type: "datetime", label: "Next visit" },
    wake: { id: "wake", type: "time", label: "Woke at" },
    sleep: {
      id: "sleep",
      type: "matrix",
      label: "Sleep",
      questions: {
        fall_asleep: { id: "fall_asleep", label: "Trouble falling asleep" },
        wake_night: { id: "wake_night", label: "Waking at night" },
      },
      questions_order: ["fall_asleep", "wake_night"],
      choices: {
        never: { label: "Never", score_value: 0 },
        sometimes: { label: "Sometimes", score_value: 1 },
        often: { label: "Often", score_value: 2 },
      },
    },
    vitals: {
      id: "vitals",
      type: "multiple_field",
      label: "Vitals",
      questions: {
        bp: { id: "bp", label: "Blood pressure", type: "text" },
        hr: { id: "hr", label: "Heart rate", type: "integer", attributes: { min: 30, max: 220 } },
        temp: { id: "temp", label: "Temperature", type: "decimal", attributes: { min: 34, max: 42 } },
      },
    },
    photos: { id: "photos", type: "image_capture", label: "Photos" },
    drawing: { id: "drawing", type: "scribble", label: "Draw" },
    daily_feeling: {
      id: "daily_feeling",
      type: "select_one",
      label: "Today",
      sibling_id: "daily",
      choices: { good: { label: "Good", score_value: 1 }, bad: { label: "Bad", score_value: 0 } },
    },
    daily_comment: { id: "daily_comment", type: "text", label: "Comment", sibling_id: "daily" },
    severe_pain: {
      id: "severe_pain",
      type: "prompt",
      label: "Tell the physician",
      logic: { show_if: [{ comparator: ">=", question: "pain", value: 8 }] },
    },
  },
  siblings: { daily: ["daily_feeling", "daily_comment"] },
  scores: [
    { id: "total", name: "Total", formula: "sum({mood}, {pain}, {sleep})" },
    { id: "half", name: "Half", formula: "{score:total} / 3" },
  ],
};

export const PHOTO_CONTEXT = { studyId: 7, participantId: 42, instrumentId: 5 };
export const PHOTO_NAME = "7_42_5_photos_1732270000000-ab12.jpeg";
export const SCRIBBLE =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

/** A complete, valid set of answers for everyTypeDefinitionJson, as the question screens make them. */
export function everyTypeAnswers(definition: SurveyDefinition): Record<string, AnswerEntry[]> {
  const q = (id: string) => questionIn(definition, id);
  return {
    intro: [],
    colour: [choiceEntry(q("colour"), "red")],
    red_note: [valueEntry("It is warm")],
    symptoms: [choiceEntry(q("symptoms"), "headache"), choiceEntry(q("symptoms"), "fatigue")],
    mood: [choiceEntry(q("mood"), "l4")],
    age: [valueEntry(30)],
    weight: [valueEntry(70.5)],
    pain: [valueEntry(5)],
    notes: [],
    visit: [valueEntry("2026-11-20T00:00:00.000Z")],
    next_visit: [valueEntry("2026-12-01T13:30:00.000Z")],
    wake: [valueEntry("2026-11-22T06:45:00+01:00")],
    sleep: [choiceEntry(q("sleep"), "often", "fall_asleep"), choiceEntry(q("sleep"), "never", "wake_night")],
    vitals: [valueEntry("120/80", "bp"), valueEntry(72, "hr"), valueEntry(36.6, "temp")],
    photos: [valueEntry(PHOTO_NAME)],
    drawing: [valueEntry(SCRIBBLE)],
    daily_feeling: [choiceEntry(q("daily_feeling"), "good")],
    daily_comment: [valueEntry("Fine")],
  };
}

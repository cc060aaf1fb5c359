import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../contracts/survey-answers.ts";
import { makeRecord } from "./answer-state.ts";
import { buildSubmission } from "./submission.ts";
import { type SubmissionPayload } from "../contracts/survey-submission.ts";
import {
  choiceEntry,
  everyTypeAnswers,
  everyTypeDefinitionJson,
  FIXED_NOW,
  PHOTO_CONTEXT,
  PHOTO_NAME,
  questionIn,
  recordsFor,
  SCRIBBLE,
  validDefinition,
  valueEntry,
} from "./test-fixtures.ts";
import {
  formatSubmissionProblem,
  SCRIBBLE_MAX_BYTES,
  validateSubmission,
  type SubmissionProblem,
} from "./validate-submission.ts";

const definition = validDefinition(everyTypeDefinitionJson);
const q = (id: string) => questionIn(definition, id);

function goodPayload(): SubmissionPayload {
  return buildSubmission({
    definition,
    records: recordsFor(definition, everyTypeAnswers(definition)),
    user: { id: 31, username: "coordinator@demo.test" },
    startTime: new Date("2026-11-22T09:40:00.000Z"),
    completion: new Date("2026-11-22T10:05:00.000Z"),
    portalVersion: "3.75.1",
    instrumentId: PHOTO_CONTEXT.instrumentId,
    browserInfo: "test",
    instanceId: 88,
  });
}

function record(payload: SubmissionPayload, id: string): AnswerRecord {
  const found = payload.answers.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no record for ${id}`);
  return found;
}

/** Puts a new record in place of a question's record. */
function replace(payload: SubmissionPayload, replacement: AnswerRecord) {
  payload.answers = payload.answers.map((existing) =>
    existing.id === replacement.id ? replacement : existing,
  );
}

/** Replaces a record's entries, keeping its state as the client would have set it. */
function answer(payload: SubmissionPayload, id: string, entries: AnswerEntry[]) {
  record(payload, id).answer = entries;
}

function problemsAfter(change: (payload: SubmissionPayload) => void): SubmissionProblem[] {
  const payload = goodPayload();
  change(payload);
  const checked = validateSubmission(definition, payload, PHOTO_CONTEXT);
  return checked.ok ? [] : checked.problems;
}

describe("a good submission", () => {
  it("is accepted, with its records and the scores the server computed", () => {
    const payload = goodPayload();
    const checked = validateSubmission(definition, payload, PHOTO_CONTEXT);
    expect(checked.ok ? [] : checked.problems.map(formatSubmissionProblem)).toEqual([]);
    if (!checked.ok) return;
    expect(checked.records).toEqual(payload.answers);
    expect(checked.scores.map((score) => [score.id, score.final_value])).toEqual([
      ["total", 11],
      ["half", 3.67],
    ]);
  });

  it("is accepted without the study and participant to check photo names against", () => {
    expect(validateSubmission(definition, goodPayload()).ok).toBe(true);
  });

  it("is accepted when an optional question shown has no record", () => {
    expect(
      problemsAfter((payload) => (payload.answers = payload.answers.filter((r) => r.id !== "weight"))),
    ).toEqual([]);
  });

  it("is accepted when optional questions are skipped", () => {
    expect(
      problemsAfter((payload) => {
        for (const id of ["symptoms", "weight", "photos", "drawing", "sleep"]) {
          replace(payload, makeRecord(q(id), [], FIXED_NOW));
        }
        payload.attachments = [];
        payload.scores[0]!.final_value = 9;
        payload.scores[1]!.final_value = 3;
      }),
    ).toEqual([]);
  });

  it("is accepted with a question the portal cannot show, required or not, left without a record", () => {
    const withUnknown = validDefinition({
      ...everyTypeDefinitionJson,
      questions: {
        ...everyTypeDefinitionJson.questions,
        notes: { id: "notes", type: "colour_wheel", label: "Notes", attributes: { required: true } },
      },
    });
    const payload = goodPayload();
    payload.answers = payload.answers.filter((r) => r.id !== "notes");
    expect(validateSubmission(withUnknown, payload).ok).toBe(true);
  });
});

type Case = [string, (payload: SubmissionPayload) => void, Partial<SubmissionProblem>];

const submissionCases: Case[] = [
  [
    "a submission for another version of the definition",
    (payload) => (payload.version_number = 2),
    {
      field: "version_number",
      message: "the submission answers version 2, but this definition is version 3",
    },
  ],
  [
    "a submission for another survey",
    (payload) => (payload.id = "other-survey"),
    { field: "id", message: 'the submission is for survey "other-survey", not "every-type"' },
  ],
  [
    "a submission for another instrument than the one posted to",
    (payload) => (payload.instrument_id = 6),
    { field: "instrument_id", message: "the submission names instrument 6, not 5" },
  ],
];

const recordCases: Case[] = [
  [
    "a record for a question the survey does not have",
    (payload) => payload.answers.push({ ...record(payload, "notes"), id: "ghost" }),
    { question: "ghost", message: "is not a question of this survey" },
  ],
  [
    "two records for one question",
    (payload) => payload.answers.push({ ...record(payload, "age") }),
    { question: "age", message: "is answered more than once" },
  ],
  [
    "a record whose type is not its question's",
    (payload) => (record(payload, "age").type = "decimal"),
    { question: "age", field: "answers[5].type", message: "is a integer question, not decimal" },
  ],
  [
    "a record marked SKIPPED that holds an answer",
    (payload) => (record(payload, "age").state = "SKIPPED"),
    { question: "age", message: "is SKIPPED but its answer makes it ANSWERED" },
  ],
  [
    "a record marked ANSWERED without an answer",
    (payload) => (record(payload, "notes").state = "ANSWERED"),
    { question: "notes", message: "is ANSWERED but its answer makes it SKIPPED" },
  ],
  [
    "an answered record without time_answered",
    (payload) => delete record(payload, "age").time_answered,
    { question: "age", message: "is answered but has no time_answered" },
  ],
  [
    "a skipped record with time_answered",
    (payload) => (record(payload, "notes").time_answered = FIXED_NOW.toISOString()),
    { question: "notes", message: "has a time_answered but is not answered" },
  ],
  [
    "a record for an introduction that holds an answer",
    (payload) => answer(payload, "intro", [valueEntry("begin")]),
    { question: "intro", message: "an introduction holds no answer" },
  ],
];

const choiceCases: Case[] = [
  [
    "a choice the question does not have",
    (payload) => answer(payload, "colour", [{ label: "Purple", value: "purple", choice_id: "purple" }]),
    {
      question: "colour",
      field: "answers[1].answer[0]",
      message: '"purple" is not a choice of this question',
    },
  ],
  [
    "a choice with another label",
    (payload) => (record(payload, "colour").answer[0]!.label = "Rouge"),
    { question: "colour", message: 'its label "Rouge" is not the label of choice "red"' },
  ],
  [
    "a choice with another score",
    (payload) => (record(payload, "colour").answer[0]!.score_value = 3),
    { question: "colour", message: 'its score_value 3 is not the score_value of choice "red" (1)' },
  ],
  [
    "a choice whose value is not its id",
    (payload) => (record(payload, "colour").answer[0]!.value = "Red"),
    { question: "colour", message: 'its value "Red" is not its choice id "red"' },
  ],
  [
    "two choices for a select one question",
    (payload) => record(payload, "colour").answer.push(choiceEntry(q("colour"), "green")),
    { question: "colour", message: "a select_one answer holds one value, not 2" },
  ],
  [
    "two choices for a likert question",
    (payload) => record(payload, "mood").answer.push(choiceEntry(q("mood"), "l1")),
    { question: "mood", message: "a likert answer holds one value, not 2" },
  ],
  [
    "one choice twice in a select multiple answer",
    (payload) => record(payload, "symptoms").answer.push(choiceEntry(q("symptoms"), "headache")),
    { question: "symptoms", message: "a choice is selected more than once" },
  ],
];

const numberCases: Case[] = [
  [
    "an integer that is not whole",
    (payload) => answer(payload, "age", [valueEntry(30.5)]),
    { question: "age", message: "30.5 is not a whole number" },
  ],
  [
    "an integer above its max",
    (payload) => answer(payload, "age", [valueEntry(130)]),
    { question: "age", message: "130 is above the maximum 120" },
  ],
  [
    "a number written as text",
    (payload) => answer(payload, "age", [valueEntry("30")]),
    { question: "age", message: '"30" is not a number' },
  ],
  [
    "a decimal with two decimals",
    (payload) => answer(payload, "weight", [valueEntry(70.25)]),
    { question: "weight", message: "70.25 has more than one decimal" },
  ],
  [
    "a decimal below its min",
    (payload) => answer(payload, "weight", [valueEntry(-1)]),
    { question: "weight", message: "-1 is below the minimum 0" },
  ],
  [
    "a rating above 10 when the scale sets no max",
    (payload) => answer(payload, "pain", [valueEntry(11)]),
    { question: "pain", message: "11 is above the maximum 10" },
  ],
  [
    "a rating below 0 when the scale sets no min",
    (payload) => answer(payload, "pain", [valueEntry(-1)]),
    { question: "pain", message: "-1 is below the minimum 0" },
  ],
  [
    "a rating that is not whole",
    (payload) => answer(payload, "pain", [valueEntry(4.5)]),
    { question: "pain", message: "4.5 is not a whole number" },
  ],
];

const textAndTimeCases: Case[] = [
  [
    "a text of 141 characters",
    (payload) => answer(payload, "red_note", [valueEntry("x".repeat(141))]),
    { question: "red_note", message: "the text holds 141 characters, more than 140" },
  ],
  [
    "a text answer that is a number",
    (payload) => answer(payload, "red_note", [valueEntry(5)]),
    { question: "red_note", message: "5 is not text" },
  ],
  [
    "a date that is not midnight UTC",
    (payload) => answer(payload, "visit", [valueEntry("2026-11-20T10:00:00.000Z")]),
    { question: "visit", message: expect.stringContaining("is not a date stored as midnight UTC") },
  ],
  [
    "a date that does not exist",
    (payload) => answer(payload, "visit", [valueEntry("2026-02-30T00:00:00.000Z")]),
    { question: "visit", message: expect.stringContaining("is not a date stored as midnight UTC") },
  ],
  [
    "a datetime with seconds",
    (payload) => answer(payload, "next_visit", [valueEntry("2026-12-01T13:30:15.000Z")]),
    { question: "next_visit", message: expect.stringContaining("is not an ISO datetime with seconds zero") },
  ],
  [
    "a time without its offset",
    (payload) => answer(payload, "wake", [valueEntry("2026-11-22T06:45:00")]),
    { question: "wake", message: expect.stringContaining("is not an ISO time with its offset") },
  ],
  [
    "a time that is only a clock time",
    (payload) => answer(payload, "wake", [valueEntry("06:45")]),
    { question: "wake", message: expect.stringContaining("is not an ISO time with its offset") },
  ],
];

const subQuestionCases: Case[] = [
  [
    "a matrix answer for a row the matrix does not have",
    (payload) => (record(payload, "sleep").answer[1]!.question = "snoring"),
    { question: "sleep", message: '"snoring" is not a row of this question' },
  ],
  [
    "a matrix answer naming a column the matrix does not have",
    (payload) =>
      (record(payload, "sleep").answer[1] = {
        label: "Always",
        value: "always",
        choice_id: "always",
        question: "wake_night",
      }),
    { question: "sleep", message: '"always" is not a choice of this question' },
  ],
  [
    "a matrix row answered twice",
    (payload) => record(payload, "sleep").answer.push(choiceEntry(q("sleep"), "often", "wake_night")),
    { question: "sleep", message: 'row "wake_night" is answered more than once' },
  ],
  [
    "a multiple field answer for a field it does not have",
    (payload) => record(payload, "vitals").answer.push(valueEntry(98, "spo2")),
    { question: "vitals", message: '"spo2" is not a field of this question' },
  ],
  [
    "an integer field holding text",
    (payload) => (record(payload, "vitals").answer[1]!.value = "72"),
    { question: "vitals", message: '"72" is not a number' },
  ],
  [
    "an integer field above its max",
    (payload) => (record(payload, "vitals").answer[1]!.value = 300),
    { question: "vitals", message: "300 is above the maximum 220" },
  ],
  [
    "a decimal field with two decimals",
    (payload) => (record(payload, "vitals").answer[2]!.value = 36.65),
    { question: "vitals", message: "36.65 has more than one decimal" },
  ],
  [
    "a text field longer than 140 characters",
    (payload) => (record(payload, "vitals").answer[0]!.value = "1".repeat(141)),
    { question: "vitals", message: "the text holds 141 characters, more than 140" },
  ],
];

const fileCases: Case[] = [
  [
    "four photos",
    (payload) => {
      const names = [1, 2, 3, 4].map((n) => `7_42_5_photos_stamp-${n}.jpeg`);
      answer(
        payload,
        "photos",
        names.map((name) => valueEntry(name)),
      );
      payload.attachments = names;
    },
    { question: "photos", message: "holds 4 photos, more than 3" },
  ],
  [
    "a photo not listed in attachments",
    (payload) => (payload.attachments = []),
    { question: "photos", message: `photo "${PHOTO_NAME}" is not listed in attachments` },
  ],
  [
    "a photo whose name does not follow the pattern",
    (payload) => {
      answer(payload, "photos", [valueEntry("photo.jpg")]);
      payload.attachments = ["photo.jpg"];
    },
    {
      question: "photos",
      message: expect.stringContaining('"photo.jpg" is not a photo file name of this question'),
    },
  ],
  [
    "a photo named for another question",
    (payload) => {
      answer(payload, "photos", [valueEntry("7_42_5_drawing_abc.jpeg")]);
      payload.attachments = ["7_42_5_drawing_abc.jpeg"];
    },
    { question: "photos", message: expect.stringContaining("is not a photo file name of this question") },
  ],
  [
    "a photo named for another participant",
    (payload) => {
      answer(payload, "photos", [valueEntry("7_43_5_photos_abc.jpeg")]);
      payload.attachments = ["7_43_5_photos_abc.jpeg"];
    },
    { question: "photos", message: expect.stringContaining("is not a photo file name of this question") },
  ],
  [
    "a photo whose stamp holds other characters",
    (payload) => {
      answer(payload, "photos", [valueEntry("7_42_5_photos_a/b.jpeg")]);
      payload.attachments = ["7_42_5_photos_a/b.jpeg"];
    },
    { question: "photos", message: expect.stringContaining("is not a photo file name of this question") },
  ],
  [
    "a drawing that is not a PNG data URL",
    (payload) => answer(payload, "drawing", [valueEntry(SCRIBBLE.replace("image/png", "image/jpeg"))]),
    { question: "drawing", message: "a drawing must be a PNG data URL (data:image/png;base64,...)" },
  ],
  [
    "a drawing larger than 512 KB",
    (payload) =>
      answer(payload, "drawing", [valueEntry(`data:image/png;base64,${"A".repeat(SCRIBBLE_MAX_BYTES)}`)]),
    { question: "drawing", message: expect.stringContaining(`more than ${SCRIBBLE_MAX_BYTES}`) },
  ],
];

const flowCases: Case[] = [
  [
    "a required question without a record",
    (payload) => (payload.answers = payload.answers.filter((r) => r.id !== "age")),
    { question: "age", message: "is required but was not answered" },
  ],
  [
    "a required question skipped",
    (payload) => replace(payload, makeRecord(q("age"), [], FIXED_NOW)),
    { question: "age", message: "is required but was not answered" },
  ],
  [
    "a required question shown by its logic and left unanswered",
    (payload) => (payload.answers = payload.answers.filter((r) => r.id !== "red_note")),
    { question: "red_note", message: "is required but was not answered" },
  ],
  [
    "an answer to a question its logic hides",
    (payload) => payload.answers.push(makeRecord(q("severe_pain"), [], FIXED_NOW)),
    { question: "severe_pain", message: "is answered, but its show-if logic hides it" },
  ],
  [
    "an answer left behind by a changed branch",
    (payload) => (record(payload, "colour").answer = [choiceEntry(q("colour"), "green")]),
    { question: "red_note", message: "is answered, but its show-if logic hides it" },
  ],
  [
    "a score that differs from the one the answers give",
    (payload) => (payload.scores[0]!.final_value = 12),
    { field: "scores[0].final_value", message: 'score "total" is 11 from the answers, not 12' },
  ],
  [
    "a score the survey does not have",
    (payload) => payload.scores.push({ id: "bonus", name: "Bonus", formula: "1", final_value: 1 }),
    { field: "scores[2].id", message: 'score "bonus" is not a score of this survey' },
  ],
  [
    "a missing score",
    (payload) => payload.scores.pop(),
    { field: "scores", message: 'score "half" is missing' },
  ],
];

describe("a bad submission is refused, naming the question and what is wrong", () => {
  it.each([
    ...submissionCases,
    ...recordCases,
    ...choiceCases,
    ...numberCases,
    ...textAndTimeCases,
    ...subQuestionCases,
    ...fileCases,
    ...flowCases,
  ])("refuses %s", (_name, change, expected) => {
    expect(problemsAfter(change)).toContainEqual(expect.objectContaining(expected));
  });

  it("refuses a record for a question of a type the portal cannot show", () => {
    const withUnknown = validDefinition({
      ...everyTypeDefinitionJson,
      questions: {
        ...everyTypeDefinitionJson.questions,
        notes: { id: "notes", type: "colour_wheel", label: "Notes" },
      },
    });
    const payload = goodPayload();
    Object.assign(record(payload, "notes"), {
      type: "colour_wheel",
      state: "ANSWERED",
      answer: [valueEntry("teal")],
    });
    const checked = validateSubmission(withUnknown, payload);
    expect(checked.ok ? [] : checked.problems).toContainEqual({
      question: "notes",
      field: "answers[8]",
      message: "is a colour_wheel question, which the portal cannot show, so it cannot be answered",
    });
  });

  it("refuses a record for a question that is not in order", () => {
    const withExtra = validDefinition({
      ...everyTypeDefinitionJson,
      questions: {
        ...everyTypeDefinitionJson.questions,
        extra: { id: "extra", type: "text", label: "Extra" },
      },
    });
    const payload = goodPayload();
    payload.answers.push(makeRecord(questionIn(withExtra, "extra"), [valueEntry("x")], FIXED_NOW));
    const checked = validateSubmission(withExtra, payload);
    expect(checked.ok ? [] : checked.problems).toContainEqual({
      question: "extra",
      message: "is not in the order of this survey, so it is never asked",
    });
  });

  it("formats a problem with its question and field", () => {
    expect(
      formatSubmissionProblem({
        question: "colour",
        field: "answers[1].answer[0]",
        message: '"purple" is not a choice of this question',
      }),
    ).toBe('Question "colour", field "answers[1].answer[0]": "purple" is not a choice of this question');
    expect(formatSubmissionProblem({ message: "the submission is for survey 1" })).toBe(
      "the submission is for survey 1",
    );
  });
});

describe("a decimal question keeps the decimals its attribute says", () => {
  const weight = q("weight");
  const twoDecimals = {
    ...definition,
    questions: {
      ...definition.questions,
      weight: { ...weight, attributes: { ...weight.attributes, decimals: 2 } },
    },
  };
  const problemsWith = (value: number) => {
    const payload = goodPayload();
    answer(payload, "weight", [valueEntry(value)]);
    const checked = validateSubmission(twoDecimals, payload, PHOTO_CONTEXT);
    return checked.ok ? [] : checked.problems.map(formatSubmissionProblem);
  };

  it("takes 70.25 when decimals is 2, and refuses 70.255 saying how many it keeps", () => {
    expect(problemsWith(70.25)).toEqual([]);
    expect(problemsWith(70.255)).toEqual([
      expect.stringMatching(/^Question "weight", .*: 70\.255 has more than 2 decimals$/),
    ]);
  });
});
